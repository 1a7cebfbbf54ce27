#!/usr/bin/env node
/**
 * `cdktf-google-iam-provider`: lays the provider this package ships out for
 * plain HCL Terraform and OpenTofu users (cdktf stacks get it at synth).
 *
 *   cdktf-google-iam-provider install [dir]       terraform.d/plugins in the configuration dir + lock entry
 *   cdktf-google-iam-provider install --mirror <dir>   a filesystem_mirror folder
 *   ... --platform <os>_<arch>                    another platform's executable too (repeatable)
 */
import * as path from 'path';
import { InstallError } from './errors';
import { installProvider, type Installation } from './install-provider';
import { terraformPlatform } from './platforms';
import { lockEntry, writeLockEntry, LOCK_FILE_NAME } from './lock-file';
import { packageManifest, providerSource } from './provider-package';

/** The bin name package.json gives this file: the package's name + `-provider` (the cdktn flavour renames both alike). */
const COMMAND = `${packageManifest().name}-provider`;

const USAGE = `Usage:
  ${COMMAND} install [dir]
      Lay the googleiam provider out in the Terraform configuration folder dir (default: .)
      as terraform.d/plugins, and add its entry to dir/${LOCK_FILE_NAME}:
      terraform init then installs it offline, with no CLI configuration.
  ${COMMAND} install --mirror <dir>
      Lay it out as a filesystem mirror at dir, for a provider_installation
      { filesystem_mirror { path = "<dir>" } } block of your CLI configuration.
  --platform <os>_<arch>
      Lay out that platform's executable too (repeatable; default: this machine's only),
      for the machines that run terraform on the folder: e.g. --platform linux_amd64.
      Its npm package must be installed.
  ${COMMAND} --help
      Show this help.
`;

/** What the command line asks for. */
type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'install'; readonly dir: string; readonly mirror: boolean; readonly platforms: readonly string[] };

class UsageError extends Error {}

/** Parses the arguments after the command name. */
export function parseArguments(args: readonly string[]): Command {
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) return { kind: 'help' };
  const [command, ...rest] = args;
  if (command !== 'install') throw new UsageError(`unknown command "${command}"`);
  let mirror = false;
  const dirs: string[] = [];
  const platforms = [terraformPlatform()];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--mirror') {
      mirror = true;
    } else if (rest[i] === '--platform') {
      const platform = rest[++i];
      if (platform === undefined || platform.startsWith('-')) throw new UsageError('--platform needs a platform, e.g. linux_amd64');
      platforms.push(platform);
    } else if (rest[i].startsWith('-')) {
      throw new UsageError(`unknown option "${rest[i]}"`);
    } else {
      dirs.push(rest[i]);
    }
  }
  if (dirs.length > 1) throw new UsageError(`one folder expected, got ${dirs.length}`);
  if (mirror && dirs.length === 0) throw new UsageError('--mirror needs a folder');
  return { kind: 'install', dir: dirs[0] ?? '.', mirror, platforms: [...new Set(platforms)] };
}

/** Runs the command; returns the exit code. */
export function main(
  args: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): number {
  let command: Command;
  try {
    command = parseArguments(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err.write(`${COMMAND}: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (command.kind === 'help') {
    out.write(USAGE);
    return 0;
  }
  const dir = path.resolve(command.dir);
  let installation: Installation;
  try {
    installation = installProvider(dir, { layout: command.mirror ? 'mirror' : 'plugins', platforms: command.platforms });
  } catch (e) {
    if (!(e instanceof InstallError)) throw e;
    err.write(`${COMMAND}: ${e.message}\n`);
    return 1;
  }
  for (const file of installation.executables) out.write(`wrote ${path.relative(process.cwd(), file) || file}\n`);
  if (!command.mirror) {
    writeLockEntry(dir, lockEntry(installation.package));
    out.write(
      `wrote the ${providerSource(installation.package)} entry of ${path.join(path.relative(process.cwd(), dir) || '.', LOCK_FILE_NAME)}\n`,
    );
  }
  out.write(`\n${snippet(installation, command.mirror ? dir : undefined)}`);
  return 0;
}

/** What to paste into the configuration (and, for a mirror, the CLI configuration). */
function snippet(installation: Installation, mirrorDir: string | undefined): string {
  const pkg = installation.package;
  const source = providerSource(pkg).replace(/^registry\.terraform\.io\//, '');
  let text = `Add to your configuration:

terraform {
  required_providers {
    ${pkg.type} = {
      source  = ${JSON.stringify(source)}
      version = ${JSON.stringify(pkg.version)}
    }
  }
}
`;
  if (mirrorDir !== undefined) {
    text += `
and to your CLI configuration (~/.terraformrc, or the file TF_CLI_CONFIG_FILE names):

provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(mirrorDir)}
    include = [${JSON.stringify(providerSource(pkg))}]
  }
  direct {
    exclude = [${JSON.stringify(providerSource(pkg))}]
  }
}
`;
  }
  return text;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
