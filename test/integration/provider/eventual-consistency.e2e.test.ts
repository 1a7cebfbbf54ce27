/**
 * The googleiam provider under the real terraform against an emulator that
 * behaves as Google's eventually consistent IAM does (its opt-in modes): a
 * resource or service account created in the same apply and visible to IAM
 * only seconds later, reads that lag writes, a write whose outcome no read
 * can settle. The emulator's write history is checked, not only end states.
 */
import type { Policy } from '../../../lib/iam/types';
import { GoogleApiEmulator } from '../../../lib/testing';
import { ApiError } from '../../../lib/testing/emulator/api-error';
import { GoogleIamWorkspace } from '../../support/googleiam-workspace';
import { exited, sleep, until } from '../../support/waiting';

jest.setTimeout(240_000);

const ROLE = 'roles/networksecurity.viewer';
const JOB_ROLE = 'roles/datamigration.editor';
const user = (i: number | string) => `user:u${i}@example.com`;

let emulator: GoogleApiEmulator;
const workspaces: GoogleIamWorkspace[] = [];
let counter = 0;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterEach(() => {
  emulator.afterWrite = undefined;
  emulator.setFaults(undefined);
  emulator.setReadLag(0);
});
afterAll(async () => {
  for (const workspace of workspaces) workspace.remove();
  await emulator.close();
});

const policyName = () => `projects/p-123456/locations/global/authorizationPolicies/consistency-${++counter}`;

function workspace(env: Record<string, string> = {}): GoogleIamWorkspace {
  const created = GoogleIamWorkspace.create(emulator, env);
  workspaces.push(created);
  return created;
}

/**
 * A `terraform_data` whose provisioner creates `name` in the emulator (over its admin API, as another
 * provider would create the resource in Google) and whose output, unknown at plan, is that name.
 */
function createdInThisApply(body: Record<string, unknown>, path: string): Record<string, unknown> {
  const script = `fetch(${JSON.stringify(`${emulator.url}/__emulator/${path}`)}, { method: 'POST', body: ${JSON.stringify(JSON.stringify(body))} }).then((r) => process.exit(r.ok ? 0 : 1))`;
  return {
    input: body.name ?? body.email,
    provisioner: [{ 'local-exec': { command: `node -e ${JSON.stringify(script)}` } }],
  };
}

/** The members of `role`'s unconditional binding in `policy`. */
function membersOf(policy: Policy, role: string): Set<string> {
  return new Set((policy.bindings ?? []).find((b) => b.role === role && !b.condition)?.members ?? []);
}

function members(name: string, role = ROLE): string[] {
  return [...membersOf(emulator.policy(name), role)].sort();
}

/** Someone else's setIamPolicy, as a console edit is: read, change, write with the etag. */
async function editElsewhere(name: string, edit: (policy: Policy) => Policy): Promise<void> {
  const current = emulator.policy(name);
  const response = await fetch(`${emulator.url}/networksecurity/v1/${name}:setIamPolicy`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${GoogleApiEmulator.ACCESS_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ policy: edit(current) }),
  });
  expect(response.status).toBe(200);
}

describe('a name or member learned at apply, visible to IAM seconds later', () => {
  for (const hiddenAs of [404, 403] as const) {
    test(`the grant waits for its resource (answering ${hiddenAs} meanwhile), writes once, and the next plan is clean`, async () => {
      const name = policyName();
      const tf = workspace();
      tf.configure(
        {
          resource: {
            terraform_data: {
              policy: createdInThisApply({ name, policy: { bindings: [] }, visibleAfterMs: 4_000, hiddenAs }, 'resources'),
            },
            googleiam_authorization_policy_iam_member: {
              reader: { name: '${terraform_data.policy.output}', role: ROLE, member: user('reader') },
            },
          },
        },
        { eventual_consistency_timeout: '60s' },
      );
      const started = Date.now();
      const apply = await tf.apply();
      expect(apply.code).toBe(0);
      expect(Date.now() - started).toBeGreaterThan(4_000);
      expect(emulator.writes(name)).toHaveLength(1);
      expect(members(name)).toEqual([user('reader')]);
      const plan = await tf.plan();
      expect(plan.code).toBe(0);
    });
  }

  test("the wait shows in terraform's log at TF_LOG=warn, naming what is waited for", async () => {
    const name = policyName();
    const tf = workspace({ TF_LOG: 'warn' });
    tf.configure(
      {
        resource: {
          terraform_data: { policy: createdInThisApply({ name, visibleAfterMs: 2_000 }, 'resources') },
          googleiam_authorization_policy_iam_binding: {
            readers: { name: '${terraform_data.policy.output}', role: ROLE, members: [user(1), user(2)] },
          },
        },
      },
      { eventual_consistency_timeout: '60s' },
    );
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    expect(apply.stderr).toContain(`waiting for ${name} to become visible to IAM`);
    expect(apply.stderr).toContain('NOT_FOUND (HTTP 404)');
    expect(emulator.writes(name)).toHaveLength(1);
  });

  test('a service account member created in the same apply is refused for a while, then granted in one write', async () => {
    const name = policyName();
    emulator.addResource(name, { bindings: [] });
    const email = `builder-${counter}@p-123456.iam.gserviceaccount.com`;
    const tf = workspace();
    tf.configure(
      {
        resource: {
          terraform_data: { account: createdInThisApply({ email, refusedForMs: 4_000 }, 'service-accounts') },
          googleiam_authorization_policy_iam_member: {
            builder: { name, role: ROLE, member: 'serviceAccount:${terraform_data.account.output}' },
            other: { name, role: ROLE, member: user('other') },
          },
        },
      },
      { eventual_consistency_timeout: '60s' },
    );
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    expect(members(name)).toEqual([`serviceAccount:${email}`, user('other')]);
    // The other grant was not held back by the refused one: it was written first, alone.
    const history = emulator.writes(name).map((w) => [...membersOf(w.policy, ROLE)].sort());
    expect(history[0]).toEqual([user('other')]);
    expect(history.at(-1)).toEqual([`serviceAccount:${email}`, user('other')]);
    expect((await tf.plan()).code).toBe(0);
  });

  test('a name that does not exist fails once the wait runs out, naming the resource, how long and why; nothing written', async () => {
    const name = policyName(); // never created
    const tf = workspace();
    tf.configure(
      { resource: { googleiam_authorization_policy_iam_member: { typo: { name, role: ROLE, member: user(1) } } } },
      { eventual_consistency_timeout: '3s' },
    );
    // The plan says so at once, before any wait (a warning: the resource may be another provider's create).
    const planStarted = Date.now();
    const plan = await tf.plan();
    const planElapsed = Date.now() - planStarted;
    expect(plan.code).toBe(2); // -detailed-exitcode: changes
    expect(plan.output).toContain('Warning: The resource does not exist');
    expect(squashed(plan.output)).toContain(
      `NOT_FOUND (HTTP 404): Resource '${name}' was not found [GET v1/${name}:getIamPolicy]. If another resource of this apply creates ${name}, nothing is wrong; else check the name: the apply will wait up to 3s for it to appear (the provider block's eventual_consistency_timeout), then fail`,
    );
    expect(squashed(plan.output)).toContain('with googleiam_authorization_policy_iam_member.typo');
    console.log(`plan of a name that does not exist: the warning in ${planElapsed} ms`);
    const started = Date.now();
    const apply = await tf.apply();
    const elapsed = Date.now() - started;
    expect(apply.code).toBe(1);
    expect(apply.output).toContain('NOT_FOUND (HTTP 404)');
    expect(apply.output).toMatch(new RegExp(`IAM still did not see the resource\\s+${name.replace(/\//g, '\\/')}\\s+after\\s+waiting`));
    expect(apply.output).toContain('eventual_consistency_timeout');
    expect(elapsed).toBeLessThan(30_000);
    expect(emulator.writes(name)).toHaveLength(0);
    expect(tf.addresses()).toEqual([]);
  });
});

test('a name known at plan whose resource this apply creates: the plan warns that it is not there yet, and the apply grants once', async () => {
  const name = policyName();
  const tf = workspace();
  tf.configure(
    {
      resource: {
        terraform_data: { policy: createdInThisApply({ name, policy: { bindings: [] } }, 'resources') },
        googleiam_authorization_policy_iam_member: {
          reader: { name, role: ROLE, member: user('reader'), depends_on: ['terraform_data.policy'] },
        },
      },
    },
    { eventual_consistency_timeout: '30s' },
  );
  const apply = await tf.apply();
  expect(apply.code).toBe(0);
  expect(squashed(apply.output)).toContain(`If another resource of this apply creates ${name}, nothing is wrong`);
  expect(emulator.writes(name)).toHaveLength(1);
  expect(members(name)).toEqual([user('reader')]);
  const plan = await tf.plan();
  expect({ code: plan.code, warned: plan.output.includes('The resource does not exist') }).toEqual({ code: 0, warned: false });
});

/** Terraform's output with its line wrapping and box drawing undone, for matching a message across lines. */
function squashed(output: string): string {
  return output.replace(/[│╷╵]/g, ' ').replace(/\s+/g, ' ');
}

describe('reads that lag writes', () => {
  // 8 s: longer than terraform takes to finish the apply and start the plan's refresh, so its first reads are stale.
  test('apply, then at once plan -detailed-exitcode: 0; an edit made elsewhere afterwards is drift (exit 2), found with one read', async () => {
    emulator.setReadLag(8_000);
    const a = policyName();
    const b = policyName();
    emulator.addResource(a, { bindings: [] });
    emulator.addResource(b, { bindings: [{ role: ROLE, members: [user('kept')] }] });
    const tf = workspace({ CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '30000' });
    tf.configure({
      resource: {
        googleiam_authorization_policy_iam_member: Object.fromEntries(
          [1, 2, 3].map((i) => [`m${i}`, { name: a, role: ROLE, member: user(i) }]),
        ),
        googleiam_authorization_policy_iam_binding: {
          owners: { name: a, role: 'roles/networksecurity.admin', members: [user('admin')] },
        },
        googleiam_authorization_policy_iam_policy: { b: { name: b, bindings: [{ role: ROLE, members: [user('kept'), user('new')] }] } },
      },
    });
    expect((await tf.apply()).code).toBe(0);
    emulator.resetStats();
    const plan = await tf.plan();
    expect(plan.output).toContain('No changes.');
    expect(plan.code).toBe(0);
    // The first reads answered versions older than the apply's writes, and the refresh read again.
    expect(emulator.stats().getIamPolicy).toBeGreaterThan(2);

    // Now someone removes u2 elsewhere; once the lag has passed, the plan sees it with one read per policy.
    await editElsewhere(a, (policy) => ({
      ...policy,
      bindings: policy.bindings!.map((binding) => ({ ...binding, members: binding.members!.filter((m) => m !== user(2)) })),
    }));
    await sleep(8_200);
    emulator.resetStats();
    const drift = await tf.plan();
    expect(drift.code).toBe(2);
    expect(drift.output).toContain('googleiam_authorization_policy_iam_member.m2 will be created');
    expect(drift.output).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    expect(emulator.stats().getIamPolicy).toBe(2);
  });

  test('by 3 s, two stacks applying grants on one policy at once: nothing lost, every write kept the others', async () => {
    emulator.setReadLag(3_000);
    const name = policyName();
    emulator.addResource(name, { bindings: [] });
    const stacks = [0, 1].map((s) => {
      const tf = workspace({ CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '60000' });
      tf.configure({
        resource: {
          googleiam_authorization_policy_iam_member: Object.fromEntries(
            [0, 1, 2, 3, 4].map((i) => [`m${i}`, { name, role: ROLE, member: user(`s${s}-${i}`) }]),
          ),
        },
      });
      return tf;
    });
    await Promise.all(stacks.map((tf) => tf.terraform(['version'])));
    const results = await Promise.all(stacks.map((tf) => tf.apply()));
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    const everyone = [0, 1].flatMap((s) => [0, 1, 2, 3, 4].map((i) => user(`s${s}-${i}`))).sort();
    expect(members(name)).toEqual(everyone);
    // No write took a member away: each holds every member an earlier write held.
    const history = emulator.writes(name).map((w) => membersOf(w.policy, ROLE));
    history.slice(1).forEach((held, i) => expect([...history[i]].every((m) => held.has(m))).toBe(true));
  });
});

describe('a write whose outcome no read can settle is kept, so nothing is lost track of', () => {
  /** The first setIamPolicy is carried out but answered 503, and every read fails until `recover`. */
  function loseTheFirstAnswer(): { recover: () => void } {
    let lost = false;
    emulator.afterWrite = () => {
      if (lost) return;
      lost = true;
      emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['getIamPolicy'] });
      throw new ApiError(503, 'UNAVAILABLE', 'The service is currently unavailable (the write was carried out).');
    };
    return { recover: () => emulator.setFaults(undefined) };
  }

  function grantWorkspace(name: string): GoogleIamWorkspace {
    emulator.addResource(name, { bindings: [{ role: ROLE, members: [user('kept')] }] });
    const tf = workspace();
    tf.configure({ resource: { googleiam_authorization_policy_iam_member: { lost: { name, role: ROLE, member: user('lost') } } } });
    return tf;
  }

  test('then destroy revokes it', async () => {
    const name = policyName();
    const tf = grantWorkspace(name);
    const { recover } = loseTheFirstAnswer();
    const apply = await tf.apply();
    expect(apply.code).toBe(1);
    expect(apply.output).toContain('whether Google carried it out is unknown');
    expect(members(name)).toEqual([user('kept'), user('lost')]);
    expect(tf.state()[0].instances[0].status).toBe('tainted');
    recover();
    const destroy = await tf.terraform(['destroy', '-auto-approve', '-input=false']);
    expect(destroy.code).toBe(0);
    expect(members(name)).toEqual([user('kept')]);
    expect(tf.addresses()).toEqual([]);
  });

  test('then deleting the grant from the code and applying revokes it', async () => {
    const name = policyName();
    const tf = grantWorkspace(name);
    const { recover } = loseTheFirstAnswer();
    expect((await tf.apply()).code).toBe(1);
    recover();
    tf.configure({ resource: {} });
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    expect(apply.output).toContain('1 destroyed');
    expect(members(name)).toEqual([user('kept')]);
  });

  test('Ctrl-C while the answer is held, then the answer lost: kept, and destroy revokes it', async () => {
    const name = policyName();
    const tf = grantWorkspace(name);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let writing = false;
    emulator.afterWrite = async () => {
      writing = true;
      await held;
      emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['getIamPolicy'] });
      throw new ApiError(503, 'UNAVAILABLE', 'The service is currently unavailable (the write was carried out).');
    };
    const child = await tf.start(['apply', '-auto-approve', '-input=false']);
    const done = exited(child);
    await until(() => writing);
    child.kill('SIGINT');
    await sleep(500);
    release();
    const { code, output } = await done;
    expect(code).toBe(1);
    expect(output).toContain('Interrupt received.');
    expect(members(name)).toEqual([user('kept'), user('lost')]);
    expect(tf.addresses()).toEqual(['googleiam_authorization_policy_iam_member.lost']);
    emulator.afterWrite = undefined;
    emulator.setFaults(undefined);
    const destroy = await tf.terraform(['destroy', '-auto-approve', '-input=false']);
    expect(destroy.code).toBe(0);
    expect(members(name)).toEqual([user('kept')]);
  });
});

test('a grant whose name, learned at apply, is of the wrong collection: apply fails, then destroy succeeds', async () => {
  const job = 'projects/p-123456/locations/us-central1/migrationJobs/orders';
  emulator.addResource(job, { bindings: [] });
  const wrong = policyName();
  emulator.addResource(wrong, { bindings: [] });
  const tf = workspace();
  tf.configure({
    resource: {
      terraform_data: { job: { input: wrong } },
      googleiam_migration_job_iam_member: { viewer: { name: '${terraform_data.job.output}', role: JOB_ROLE, member: user(1) } },
    },
  });
  const apply = await tf.apply();
  expect(apply.code).toBe(1);
  expect(apply.output).toContain('Error: Invalid Database Migration Service migration job');
  expect(apply.output).toContain('migration job name');
  expect(emulator.writes(wrong)).toHaveLength(0);
  const destroy = await tf.terraform(['destroy', '-auto-approve', '-input=false']);
  expect(destroy.output).toContain('Destroy complete! Resources: 1 destroyed.');
  expect(destroy.code).toBe(0);
  expect(tf.addresses()).toEqual([]);
});
