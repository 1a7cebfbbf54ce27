import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleApiEmulator } from '../../lib/testing';
import { runCommand, type CommandResult } from './terraform';

const ROOT = path.join(__dirname, '..', '..');
/** What `npx cdktf-google-iam-provider` runs (package.json's bin). */
const INSTALL_COMMAND = path.join(ROOT, 'lib', 'install', 'cli.js');

/** Hand-written HCL configurations of one test file, against the emulator. */
export interface HclConfigurations {
  readonly emulator: GoogleApiEmulator;
  /** The file's scratch folder (each configuration is a folder in it). */
  readonly scratch: string;
  /** The environment terraform runs with: the emulator's endpoints, an empty CLI configuration. */
  readonly env: Record<string, string>;
  /**
   * `main.tf` in a folder of its own: the `required_providers` block, then `text`; the provider laid out by the
   * package's install command (as docs/hcl.md says) and `terraform init` run.
   */
  configuration(name: string, text: string): Promise<string>;
  /** `terraform <command> -no-color <args>` in `dir`, with the emulator's endpoints and no CLI configuration of the machine's. */
  terraform(dir: string, ...args: string[]): Promise<CommandResult>;
}

/**
 * For a test file that runs the real `terraform` on HCL: starts the emulator and a scratch folder before the
 * file's tests, removes them after, and seeds `resources` before each test (its writes cleared). Call it at the
 * top level of the file.
 */
export function hclConfigurationsOfThisFile(prefix: string, resources: readonly string[]): HclConfigurations {
  let emulator: GoogleApiEmulator | undefined;
  let scratch = '';
  let env: Record<string, string> = {};
  beforeAll(async () => {
    emulator = await GoogleApiEmulator.start();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    fs.writeFileSync(path.join(scratch, 'empty.tfrc'), '');
    env = { ...emulator.env(), TF_CLI_CONFIG_FILE: path.join(scratch, 'empty.tfrc') };
  });
  afterAll(async () => {
    await emulator?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  beforeEach(() => {
    for (const resource of resources) emulator!.addResource(resource);
    emulator!.clearWrites();
  });
  const terraform = (dir: string, ...args: string[]) => runCommand('terraform', [args[0], '-no-color', ...args.slice(1)], dir, env);
  return {
    get emulator() {
      return emulator!;
    },
    get scratch() {
      return scratch;
    },
    get env() {
      return env;
    },
    terraform,
    async configuration(name, text) {
      const dir = path.join(scratch, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(
        path.join(dir, 'main.tf'),
        `terraform {
  required_providers {
    googleiam = { source = "cdktf-google-iam/googleiam" }
  }
}
${text}`,
      );
      const installed = await runCommand(process.execPath, [INSTALL_COMMAND, 'install', '.'], dir, {});
      expect({ code: installed.code, stderr: installed.stderr }).toEqual({ code: 0, stderr: '' });
      expect((await terraform(dir, 'init', '-input=false')).code).toBe(0);
      return dir;
    },
  };
}

/** Terraform's output with its wrapping undone (it wraps a diagnostic's detail at spaces). */
export function unwrapped(output: string): string {
  return output.replace(/\s+/g, ' ');
}

/** One member grant on an authorization policy.  */
export interface MemberGrant {
  readonly name: string;
  readonly role: string;
  readonly member: string;
}

/**
 * A hand-written main.tf as an HCL user writes one: the googleiam provider pinned to this package's version
 * (what the install command and the release lay out), and `grant` as the resource `address`.
 */
export function pinnedMemberGrantConfiguration(address: string, grant: MemberGrant): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
  return `terraform {
  required_providers {
    googleiam = {
      source  = "cdktf-google-iam/googleiam"
      version = ${JSON.stringify(version)}
    }
  }
}

resource "googleiam_authorization_policy_iam_member" ${JSON.stringify(address)} {
  name   = ${JSON.stringify(grant.name)}
  role   = ${JSON.stringify(grant.role)}
  member = ${JSON.stringify(grant.member)}
}
`;
}
