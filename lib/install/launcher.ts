/**
 * The provider executable Terraform starts: a POSIX `sh` script (dash,
 * bash, BusyBox ash: Alpine has no `env -S`, so no flag can go on a
 * `#!/usr/bin/env node` line) that finds Node.js on PATH, checks its version
 * before the bundle is parsed (an old Node may not parse it), and execs it
 * on the bundle laid out once in the folder above the platform folders.
 *
 * Terraform reads a plugin's first line on stdout as its handshake and, when
 * it is not one, prints it ("Unrecognized remote plugin message: <line>"):
 * every failure here is that one line, so that users read it in Terraform's
 * own output instead of under TF_LOG=debug.
 *
 * The script holds no absolute path and names the bundle by its content
 * hash: it is the same on every machine (one `h1:` hash in the lock file),
 * and a changed bundle changes the launcher, so the lock file still pins
 * the bundle through it.
 */
import * as crypto from 'crypto';
import type { ProviderPackage } from './provider-package';

/** The oldest Node.js major the provider runs on: package.json's engines.node and esbuild's target. */
export const MIN_NODE_MAJOR = 22;

/**
 * V8 flags of the provider's node: a 1 MiB semi-space (the young generation) keeps the provider's peak
 * RSS at 1,000 grants near 220 MiB instead of 280-345 (docs/performance.md).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

/** The bundle's file name in the version folder: `terraform-provider-<type>_v<version>.<SHA-256 of it, hex>.js`. */
export function bundleFileName(pkg: ProviderPackage, bundle: Buffer): string {
  return `terraform-provider-${pkg.type}_v${pkg.version}.${sha256(bundle)}.js`;
}

/** Whether `name` is a bundle file name of `pkg` (of any content), for clearing out earlier ones. */
export function isBundleFileName(pkg: ProviderPackage, name: string): boolean {
  return name.startsWith(`terraform-provider-${pkg.type}_v${pkg.version}.`) && /\.[0-9a-f]{64}\.js$/.test(name);
}

/** The text of the launcher that runs `bundle` (its content), laid out as `bundleFileName` in the folder above. */
export function launcherScript(pkg: ProviderPackage, bundle: Buffer): string {
  const bundleName = bundleFileName(pkg, bundle);
  const needs = `The ${pkg.type} provider needs Node.js >= ${MIN_NODE_MAJOR} on the PATH of the machine that runs terraform; found:`;
  const missing = `The ${pkg.type} provider's bundle $b is not in the folder above $0: lay the provider out again (synth, or the package's install command)`;
  const changed = `The ${pkg.type} provider bundle differs from the one its launcher was laid out with (SHA-256): lay the provider out again:`;
  // Runs in whichever Node was found: ES5 only, and no single quote (sh quotes it). The bundle is checked
  // against its SHA-256 because the lock file's h1: hash covers the platform folder, the launcher, only.
  const check =
    'var v=process.versions.node,p=process.argv[1];' +
    `if(+v.split(".")[0]<${MIN_NODE_MAJOR}){console.log(${JSON.stringify(`${needs} v`)}+v+" at "+process.execPath);process.exitCode=1}` +
    `else if(require("crypto").createHash("sha256").update(require("fs").readFileSync(p)).digest("hex")!==${JSON.stringify(sha256(bundle))})` +
    `{console.log(${JSON.stringify(`${changed} `)}+p);process.exitCode=1}` +
    'else require(p)';
  return `#!/bin/sh
# registry.terraform.io/${pkg.namespace}/${pkg.type} ${pkg.version}: Terraform starts this file as the provider.
# It runs the bundle laid out in the folder above this one with the Node.js on PATH (>= ${MIN_NODE_MAJOR}).
# Whatever goes wrong is one line on stdout, where Terraform reads the handshake and shows what it got.
b=${bundleName}
command -v node >/dev/null 2>&1 || { printf '%s\\n' "${needs} none (PATH=$PATH)"; exit 1; }
case $0 in */*) d=\${0%/*} ;; *) d=. ;; esac
# cd -P: Terraform links this folder into .terraform/providers; the bundle is beside the folder linked to.
d=$(CDPATH= cd -P -- "$d/.." && pwd -P) && [ -f "$d/$b" ] || { printf '%s\\n' "${missing}"; exit 1; }
exec node ${NODE_FLAGS.join(' ')} -e '${check}' "$d/$b" "$@"
`;
}

function sha256(content: Buffer): string {
  return crypto.createHash('sha256').update(content).digest('hex');
}
