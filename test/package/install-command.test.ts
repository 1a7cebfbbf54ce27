/**
 * The installer command for plain HCL users, exactly as the README writes it, from the packed tarball in a
 * fresh folder that holds nothing but a hand-written main.tf: npx installs the tarball and this platform's
 * package (the executable, as `npm run package` writes it) alone (no cdktf, no
 * constructs, no registry: npm runs offline here with an empty cache of its own), the command lays the
 * provider out, `terraform init` installs it offline with no CLI configuration and no warning, and the
 * provider it laid out grants a member against the emulator.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleApiEmulator, TerraformCli } from '../../lib/testing';
import { pinnedMemberGrantConfiguration } from '../support/hcl-configurations';
import { writeThisPlatformPackage } from '../support/platform-package';

jest.setTimeout(180_000);

const ROOT = path.join(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const NAME = 'projects/p-123456/locations/global/authorizationPolicies/hcl';
const ROLE = 'roles/networksecurity.viewer';

let work: string;
let tarball: string;
let platformTarball: string;
let emulator: GoogleApiEmulator;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-install-command-'));
  const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack exited with ${pack.status}:\n${pack.stderr}`);
  tarball = path.join(work, (JSON.parse(pack.stdout) as [{ filename: string }])[0].filename);
  const platformDir = writeThisPlatformPackage(work, path.join(work, 'platform-package'));
  const platformPack = spawnSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: platformDir, encoding: 'utf8' });
  if (platformPack.status !== 0)
    throw new Error(`npm pack of the platform package exited with ${platformPack.status}:\n${platformPack.stderr}`);
  platformTarball = path.join(work, (JSON.parse(platformPack.stdout) as [{ filename: string }])[0].filename);
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(NAME, { bindings: [] });
});
afterAll(async () => {
  await emulator?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("the README's command, from the tarball, lays the provider out for a hand-written configuration that terraform then runs offline", async () => {
  const documented = /`(npx --yes --legacy-peer-deps --package=(\S+\.tgz) --package=(\S+\.tgz) cdktf-google-iam-provider install \.)`/.exec(
    README,
  );
  expect(documented).not.toBeNull();
  const [, command, readmeTarball, readmePlatformTarball] = documented!;
  expect(readmeTarball).toBe(`../cdktf-google-iam/dist-packages/${path.basename(tarball)}`);
  // The README names linux-x64's; this machine's is the one installed here.
  expect(readmePlatformTarball).toMatch(
    /^\.\.\/cdktf-google-iam\/dist-packages\/cdktf-google-iam-provider-(linux|darwin|win32)-(x64|arm64)-[\d.]+\.tgz$/,
  );

  const dir = path.join(work, 'hcl');
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, 'main.tf'),
    pinnedMemberGrantConfiguration('reader', { name: NAME, role: ROLE, member: 'user:hcl@example.com' }),
  );
  const install = spawnSync('sh', ['-c', command.replace(readmeTarball, tarball).replace(readmePlatformTarball, platformTarball)], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_cache: path.join(work, 'npm-cache'),
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
    },
  });
  expect(install.stderr).not.toContain('npm error');
  expect(install.status).toBe(0);
  expect(install.stdout).toContain('wrote the registry.terraform.io/cdktf-google-iam/googleiam entry of .terraform.lock.hcl');
  expect(install.stdout).toContain('source  = "cdktf-google-iam/googleiam"');
  expect(fs.readdirSync(dir).sort()).toEqual(['.terraform.lock.hcl', 'main.tf', 'terraform.d']);

  fs.writeFileSync(path.join(work, 'empty.tfrc'), '');
  const env = { ...emulator.env(), TF_CLI_CONFIG_FILE: path.join(work, 'empty.tfrc') };
  const lock = fs.readFileSync(path.join(dir, '.terraform.lock.hcl'));
  const init = await TerraformCli.run(['init', '-input=false', '-no-color'], { cwd: dir, env });
  expect(init.output).toContain('(unauthenticated)');
  expect(init.output).not.toContain('Warning');
  expect(fs.readFileSync(path.join(dir, '.terraform.lock.hcl')).equals(lock)).toBe(true);

  const apply = await TerraformCli.run(['apply', '-auto-approve', '-input=false', '-no-color'], { cwd: dir, env });
  expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
  expect(emulator.policy(NAME).bindings).toEqual([{ role: ROLE, members: ['user:hcl@example.com'] }]);
});
