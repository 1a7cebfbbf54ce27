/**
 * Issue 49, finding 1: the provider on a host it shares with other accounts
 * (a CI runner's /tmp), under the real terraform as user `nobody`. Every
 * plan records what the configuration declares in a folder of the run
 * (run-declarations.ts): another account's leftovers in a shared temp dir
 * must not fail it ("EACCES ... This is a bug in the provider" on every
 * resource, before the fix), a temp dir it cannot write must not either
 * (the process works on its own, and says so once), and no run leaves its
 * folder behind, `terraform plan` included.
 *
 * Needs root (to plant another account's folders and to run as `nobody`,
 * with setpriv or runuser); without, the tests are skipped, saying why.
 * `nobody` cannot reach /root: it gets this Node.js linked into a folder it
 * can read, its own working directories and terraform.rc there, and the
 * emulator on 127.0.0.1.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { installProvider, lockEntry, providerPackage, writeLockEntry } from '../../../lib/install';
import { GoogleApiEmulator, type CommandResult } from '../../../lib/testing';
import { chownTree, nodeFor, otherUser, runAs, type OtherUser } from '../../support/other-user';
import { sleep } from '../../support/waiting';
import { historyOf } from '../../support/write-history';

jest.setTimeout(240_000);

const VIEWER = 'roles/networksecurity.viewer';
const OWNER = { role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] };
const MEMBER = 'googleiam_authorization_policy_iam_member';
const BUG = 'bug in the provider';
const WARNING = 'The googleiam provider processes of this terraform run cannot share what they declare';

const user = otherUser();
const canSwitchUser = typeof user !== 'string';
if (!canSwitchUser) console.warn(`shared-host.e2e.test.ts: the two-user tests are skipped: ${user}`);
const twoUsers = canSwitchUser ? test : test.skip;

let emulator: GoogleApiEmulator;
/** A folder every account can read (and pass through): nobody's node, its working directories, the shared temp dirs. */
let shared: string;
let nodeBin: string;
let counter = 0;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addProject('p-123456', '123456789012');
  shared = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-host-'));
  fs.chmodSync(shared, 0o755);
  if (canSwitchUser) nodeBin = nodeFor(shared);
});
afterAll(async () => {
  fs.rmSync(shared, { recursive: true, force: true });
  await emulator.close();
});

function newPolicy(): string {
  const name = `projects/p-123456/locations/global/authorizationPolicies/shared-${++counter}`;
  emulator.addResource(name, { bindings: [OWNER] });
  return name;
}

/** A temp dir as /tmp is: every account writes, none removes another's (sticky). */
function stickyTempDir(): string {
  const dir = fs.mkdtempSync(path.join(shared, 'tmp-'));
  fs.chmodSync(dir, 0o1777);
  return dir;
}

/** A terraform working directory of `nobody`'s, the provider laid out in it as the implied local mirror. */
class NobodysWorkspace {
  public readonly dir: string;
  private readonly env: Record<string, string>;

  constructor(
    private readonly as: OtherUser,
    tmpdir: string,
  ) {
    const root = fs.mkdtempSync(path.join(shared, 'work-'));
    this.dir = path.join(root, 'config');
    fs.mkdirSync(this.dir);
    fs.mkdirSync(path.join(root, 'home'));
    const pkg = providerPackage();
    installProvider(this.dir, { layout: 'plugins', package: pkg, platforms: [`linux_${process.arch === 'x64' ? 'amd64' : process.arch}`] });
    writeLockEntry(this.dir, lockEntry(pkg));
    fs.writeFileSync(path.join(root, 'terraform.rc'), '');
    chownTree(root, as);
    this.env = {
      ...emulator.env(),
      PATH: `${nodeBin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: path.join(root, 'home'),
      TMPDIR: tmpdir,
      TF_CLI_CONFIG_FILE: path.join(root, 'terraform.rc'),
      TF_IN_AUTOMATION: '1',
      CHECKPOINT_DISABLE: '1',
      CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '50',
      CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '5000',
    };
  }

  /** Writes main.tf.json as `nobody` would: the googleiam provider (a list for aliases) and `resource`. */
  public configure(resource: Record<string, unknown>, provider: readonly Record<string, unknown>[] = [{}]): void {
    const config = {
      terraform: { required_providers: { googleiam: { source: 'cdktf-google-iam/googleiam', version: providerPackage().version } } },
      provider: { googleiam: provider },
      resource,
    };
    const file = path.join(this.dir, 'main.tf.json');
    fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
    fs.chownSync(file, this.as.uid, this.as.gid);
  }

  public async terraform(...args: string[]): Promise<CommandResult> {
    return runAs(this.as, 'terraform', [args[0], '-no-color', ...args.slice(1)], this.dir, this.env);
  }

  public async init(): Promise<void> {
    const init = await this.terraform('init', '-input=false');
    if (init.code !== 0) throw new Error(`terraform init failed:\n${init.output}`);
  }
}

/** The run folders under `dir` (any depth): what a run would have left behind. */
function runFolders(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => /(^|\/)run-[^/]+$/.test(entry))
    .map((entry) => path.join(dir, entry));
}

/** Every run folder under `dirs` has gone (the watcher polls each second): those still there after 5 s. */
async function leftBehind(...dirs: string[]): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  let left = dirs.flatMap(runFolders);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(100);
    left = dirs.flatMap(runFolders);
  }
  return left;
}

/** A command that went well: exit `code`, and never the provider's internal error (else what it printed). */
function expectSucceeded(result: CommandResult, code = 0): void {
  if (result.code !== code || result.output.includes(BUG)) {
    throw new Error(`expected exit code ${code} and no "${BUG}", got ${result.code}:\n${result.output}`);
  }
}

/** Field 22 of /proc/<pid>/stat: when the process started, as run folders name it. */
function startOf(pid: number): string {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** Root's folders in the shared temp dir, as another account's runs leave them: before and after the fix. */
function plantRootsRuns(tmp: string): string[] {
  const planted = [
    // A run of root's that is still going (this process, with its start time), and one that has ended: as an
    // earlier build named them, straight in the temp dir.
    `terraform-provider-googleiam-run-${process.pid}-${startOf(process.pid)}`,
    'terraform-provider-googleiam-run-999999999-1',
    // Root's own folder of runs, with one ended.
    'terraform-provider-googleiam-0',
    'terraform-provider-googleiam-0/run-x-x-999999999-1',
  ];
  for (const folder of planted) {
    fs.mkdirSync(path.join(tmp, folder), { mode: 0o700 });
    fs.writeFileSync(path.join(tmp, folder, '1'), '');
  }
  return planted;
}

twoUsers(
  "two users share one TMPDIR: root's run folders, live and ended, and a per-user folder named for nobody but made by root neither fail nor serve nobody's apply, plan and destroy",
  async () => {
    const as = user as OtherUser;
    const tmp = stickyTempDir();
    const planted = plantRootsRuns(tmp);
    // A folder of nobody's name, made first by root and open to all: nobody must not use it.
    const squatted = path.join(tmp, `terraform-provider-googleiam-${as.uid}`);
    fs.mkdirSync(squatted);
    fs.chmodSync(squatted, 0o777);
    const name = newPolicy();
    const tf = new NobodysWorkspace(as, tmp);
    // Two provider configurations: two provider processes of each walk, sharing the run's folder.
    tf.configure(
      {
        [MEMBER]: {
          m: { name, role: VIEWER, member: 'user:m@example.com' },
          n: { provider: 'googleiam.second', name, role: VIEWER, member: 'user:n@example.com' },
        },
      },
      [{}, { alias: 'second' }],
    );
    await tf.init();
    const dataDir = path.join(tf.dir, '.terraform');
    for (const command of [
      ['apply', '-auto-approve', '-input=false'],
      ['plan', '-input=false', '-detailed-exitcode'],
      ['destroy', '-auto-approve', '-input=false'],
    ]) {
      const result = await tf.terraform(...command);
      expectSucceeded(result);
      expect(result.output).not.toContain(WARNING);
      expect(await leftBehind(dataDir, squatted)).toEqual([]);
    }
    // The runs were kept in nobody's working directory, never in the shared temp dir.
    expect(fs.statSync(path.join(dataDir, 'googleiam-runs')).uid).toBe(as.uid);
    expect(fs.readdirSync(squatted)).toEqual([]);
    expect(fs.readdirSync(tmp).sort()).toEqual([...planted.filter((p) => !p.includes('/')), path.basename(squatted)].sort());
    // Granted in one write (both processes' grants), revoked by the destroy.
    const history = historyOf(emulator, name, VIEWER);
    expect(history).toContainEqual(['user:m@example.com', 'user:n@example.com']);
    expect(history.at(-1)).toEqual([]);
  },
);

twoUsers(
  'a working directory whose .terraform nobody cannot write: its runs go to its own folder of the shared TMPDIR, made mode 0700',
  async () => {
    const as = user as OtherUser;
    const tmp = stickyTempDir();
    plantRootsRuns(tmp);
    const name = newPolicy();
    const tf = new NobodysWorkspace(as, tmp);
    tf.configure({ [MEMBER]: { m: { name, role: VIEWER, member: 'user:m@example.com' } } });
    await tf.init();
    fs.chmodSync(path.join(tf.dir, '.terraform'), 0o555);
    const own = path.join(tmp, `terraform-provider-googleiam-${as.uid}`);
    for (const command of [
      ['apply', '-auto-approve', '-input=false'],
      ['plan', '-input=false', '-detailed-exitcode'],
      ['destroy', '-auto-approve', '-input=false'],
    ]) {
      const result = await tf.terraform(...command);
      expectSucceeded(result);
      expect(result.output).not.toContain(WARNING);
      expect(await leftBehind(own)).toEqual([]);
    }
    const stat = fs.statSync(own);
    expect({ uid: stat.uid, mode: stat.mode & 0o7777 }).toEqual({ uid: as.uid, mode: 0o700 });
    expect(historyOf(emulator, name, VIEWER)).toEqual([['user:m@example.com'], []]);
  },
);

describe('a TMPDIR nobody can write, and no .terraform it can write: the provider works on its own', () => {
  let tf: NobodysWorkspace;
  let tmp: string;
  let name: string;
  const results: CommandResult[] = [];

  beforeAll(async () => {
    if (!canSwitchUser) return;
    tmp = fs.mkdtempSync(path.join(shared, 'tmp-'));
    fs.chmodSync(tmp, 0o755); // root's
    name = newPolicy();
    tf = new NobodysWorkspace(user as OtherUser, tmp);
    tf.configure({ [MEMBER]: { m: { name, role: VIEWER, member: 'user:m@example.com' } } });
    await tf.init();
    fs.chmodSync(path.join(tf.dir, '.terraform'), 0o555);
  });

  twoUsers('a one-provider configuration applies and destroys, never with the internal error, and leaves nothing', async () => {
    for (const command of [
      ['apply', '-auto-approve', '-input=false'],
      ['plan', '-input=false', '-detailed-exitcode'],
      ['destroy', '-auto-approve', '-input=false'],
    ]) {
      const result = await tf.terraform(...command);
      results.push(result);
      expectSucceeded(result);
      expect(await leftBehind(tmp, path.join(tf.dir, '.terraform'))).toEqual([]);
    }
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(historyOf(emulator, name, VIEWER)).toEqual([['user:m@example.com'], []]);
  });

  // A destroy declares nothing (its first walk only refreshes; its plans are destructions): nothing is at risk.
  twoUsers(
    'apply and plan warn once, naming the folders tried, the error, what is at risk and what to set; destroy has nothing to warn of',
    () => {
      const [apply, plan, destroy] = results;
      for (const result of [apply, plan]) {
        expect(result.output.split(WARNING)).toHaveLength(2); // terraform shows the apply walk's as "one more similar warning"
        const detail = result.output.replace(/\s+/g, ' '); // as terraform wraps it
        expect(detail).toContain(`${path.join(tf.dir, '.terraform')}: EACCES: permission denied, access;`);
        expect(detail).toContain(
          `${path.join(tmp, `terraform-provider-googleiam-${(user as OtherUser).uid}`)}: EACCES: permission denied, mkdir)`,
        );
        expect(detail).toContain('a grant moved between two provider configurations (aliases) of one policy may be revoked');
        expect(detail).toContain('CDKTF_GOOGLE_IAM_RUN_DIR');
      }
      expect(destroy.output).not.toContain(WARNING);
    },
  );
});
