import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Where ExternalProviderStandIn.install() put the stand-in, and how to point Terraform at it. */
export interface ExternalProviderInstallation {
  /** The Terraform CLI configuration file: set TF_CLI_CONFIG_FILE to it. */
  readonly cliConfigFile: string;
  /**
   * The environment for `terraform init/plan/apply`: TF_CLI_CONFIG_FILE, and
   * the Node.js that runs the provider (the current one). Merge it into the
   * environment Terraform runs with.
   */
  readonly env: { [name: string]: string };
  /** The provider version it poses as (the only one in the mirror). */
  readonly version: string;
  /** The filesystem mirror directory named in the CLI configuration. */
  readonly mirrorDir: string;
}

/**
 * A stand-in of the `hashicorp/external` Terraform provider (data source
 * `external`, as in v2.3.x) that runs on Node.js, for running Terraform with
 * `data "external"` blocks offline, where the real provider cannot be
 * downloaded. Terraform installs it from a local filesystem mirror; every
 * other provider is still installed as usual. TypeScript/JavaScript only
 * (see README.md beside this file).
 */
export class ExternalProviderStandIn {
  /** The provider version the stand-in poses as. */
  public static readonly VERSION = '2.3.5';

  /** The environment variable the launcher takes the `node` executable from (default: `node` on PATH). */
  public static readonly NODE_ENV_VAR = 'TF_EXTERNAL_STAND_IN_NODE';

  /**
   * Writes the filesystem mirror and the CLI configuration into `dir`
   * (default: a new temporary directory) and returns how to use them.
   * Idempotent: installing again into the same directory rewrites only what
   * changed, so a Terraform working directory initialised before keeps its
   * lock file valid.
   *
   * @param dir the directory to install into; created if missing
   */
  public static install(dir?: string): ExternalProviderInstallation {
    const bundle = ExternalProviderStandIn.bundlePath();
    if (!fs.existsSync(bundle)) {
      throw new Error(
        `The stand-in of the hashicorp/external provider is not built: ${bundle} is missing. ` +
          'Run `npm run bundle:tools` (part of `npm run build`) in the cdktf-google-iam repository.',
      );
    }
    const root = path.resolve(dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'terraform-provider-external-')));
    const version = ExternalProviderStandIn.VERSION;
    const mirrorDir = path.join(root, 'mirror');
    const packageDir = path.join(mirrorDir, 'registry.terraform.io', 'hashicorp', 'external', version, goPlatform());
    fs.mkdirSync(packageDir, { recursive: true });
    // The package holds its own copy of the bundle, so its content (and the hash in .terraform.lock.hcl) depends
    // on the bundle alone. Its name must not start with "terraform-provider-external": Terraform would run it.
    writeIfChanged(path.join(packageDir, BUNDLE_NAME), fs.readFileSync(bundle));
    writeIfChanged(path.join(packageDir, `terraform-provider-external_v${version}`), Buffer.from(LAUNCHER), 0o755);

    const cliConfigFile = path.join(root, 'terraform.rc');
    writeIfChanged(cliConfigFile, Buffer.from(cliConfig(mirrorDir)));
    return {
      cliConfigFile,
      env: { TF_CLI_CONFIG_FILE: cliConfigFile, [ExternalProviderStandIn.NODE_ENV_VAR]: process.execPath },
      version,
      mirrorDir,
    };
  }

  /** The bundled provider: dist/terraform-provider-external.js beside this file. */
  public static bundlePath(): string {
    return path.join(__dirname, 'dist', 'terraform-provider-external.js');
  }

  private constructor() {}
}

const BUNDLE_NAME = 'stand-in.js';

/** Runs the bundle beside it with Node.js; Terraform starts this as the provider executable. */
const LAUNCHER = `#!/bin/sh
# Stand-in of the hashicorp/external Terraform provider (cdktf-google-iam
# testing): the provider itself is ${BUNDLE_NAME} beside this file.
node="\${${ExternalProviderStandIn.NODE_ENV_VAR}:-node}"
if ! command -v "$node" >/dev/null 2>&1; then
  echo "terraform-provider-external (stand-in): cannot run '$node'; put Node.js on PATH or set ${ExternalProviderStandIn.NODE_ENV_VAR}" >&2
  exit 1
fi
exec "$node" "$(dirname "$0")/${BUNDLE_NAME}" "$@"
`;

/**
 * hashicorp/external comes from the mirror only; every other provider as
 * usual (direct). Strings are quoted as JSON, which HCL accepts.
 */
function cliConfig(mirrorDir: string): string {
  const source = JSON.stringify('registry.terraform.io/hashicorp/external');
  return `# Written by cdktf-google-iam's ExternalProviderStandIn.install().
provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(mirrorDir)}
    include = [${source}]
  }
  direct {
    exclude = [${source}]
  }
}
`;
}

/** Terraform's platform name (Go's GOOS_GOARCH) for this machine. */
function goPlatform(): string {
  const goos: Record<string, string> = { linux: 'linux', darwin: 'darwin', freebsd: 'freebsd', openbsd: 'openbsd' };
  const goarch: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };
  const system = goos[process.platform];
  const arch = goarch[process.arch];
  if (!system || !arch) {
    throw new Error(
      `The stand-in of the hashicorp/external provider does not run on ${process.platform}/${process.arch} ` +
        '(it needs a POSIX shell to start Node.js).',
    );
  }
  return `${system}_${arch}`;
}

function writeIfChanged(file: string, content: Buffer, mode?: number): void {
  let current: Buffer | undefined;
  try {
    current = fs.readFileSync(file);
  } catch {
    current = undefined;
  }
  if (!current || !current.equals(content)) {
    // Write then rename, so that a Terraform running from an earlier install never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, content, { mode });
    fs.renameSync(temp, file);
  }
  if (mode !== undefined) fs.chmodSync(file, mode);
}
