import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..', '..');

/**
 * The `@jsii/runtime` every jsii host runtime starts. It cannot be a dev
 * dependency (its `@jsii/kernel` dependency is not on the registry at this
 * version), but its tarball is self-contained: `webpack/bin/jsii-runtime.js`
 * with the kernel bundled. Fetched with `npm pack` (npm checks the registry's
 * integrity hash) into a cache folder, once per machine.
 */
export const JSII_RUNTIME_VERSION = '1.140.0';

/** The runtime's entry script, fetched into the cache (`JSII_RUNTIME_CACHE`, else the temp folder) on first use. */
export function jsiiRuntimeEntry(): string {
  const cache = path.join(process.env.JSII_RUNTIME_CACHE ?? path.join(os.tmpdir(), 'cdktf-google-iam-jsii-runtime'), JSII_RUNTIME_VERSION);
  const entry = path.join(cache, 'package', 'webpack', 'bin', 'jsii-runtime.js');
  if (fs.existsSync(entry)) return entry;
  fs.mkdirSync(path.dirname(cache), { recursive: true });
  // Fetched and unpacked beside the cache, then renamed into place: another test process may be doing the same.
  const staging = fs.mkdtempSync(`${cache}.staging-`);
  try {
    const tarball = packInto(`@jsii/runtime@${JSII_RUNTIME_VERSION}`, staging);
    execFileSync('tar', ['-xzf', tarball, '-C', staging]);
    fs.rmSync(tarball);
    try {
      fs.renameSync(staging, cache);
    } catch (error) {
      if (!fs.existsSync(entry)) throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return entry;
}

/** An npm tarball ready for the kernel's `load`. */
export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  readonly tarball: string;
}

/**
 * The framework and `constructs` as published (the registry's tarballs, with
 * their bundled dependencies, which a pack of the installed folder lacks), at
 * the installed versions; and this library (or its CDK Terrain flavour,
 * `dist-cdktn/`) as `npm pack` makes it from the build: the tarballs the
 * Python, Java, Go and .NET packages embed and hand to the kernel.
 */
export function packFlavour(
  flavour: 'cdktf' | 'cdktn',
  destination: string,
): { constructs: PackedPackage; framework: PackedPackage; library: PackedPackage } {
  const library = flavour === 'cdktf' ? ROOT : path.join(ROOT, 'dist-cdktn');
  if (
    !fs.existsSync(path.join(library, '.jsii')) ||
    !fs.existsSync(path.join(ROOT, 'dist', 'provider', 'terraform-provider-googleiam.js'))
  ) {
    throw new Error(`${library} is not built: run npm run build first`);
  }
  return {
    constructs: published('constructs', destination),
    framework: published(flavour, destination),
    library: packed(library, destination),
  };
}

function published(name: string, destination: string): PackedPackage {
  const { version } = packageJson(path.join(ROOT, 'node_modules', name));
  return { name, version, tarball: packInto(`${name}@${version}`, destination) };
}

function packed(folder: string, destination: string): PackedPackage {
  const { name, version } = packageJson(folder);
  return { name, version, tarball: packInto(folder, destination) };
}

function packageJson(folder: string): { name: string; version: string } {
  return JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { name: string; version: string };
}

function packInto(spec: string, destination: string): string {
  const out = execFileSync('npm', ['pack', spec, '--ignore-scripts', '--json', '--pack-destination', destination], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [{ filename }] = JSON.parse(out) as { filename: string }[];
  return path.join(destination, filename);
}
