/**
 * The grant lifecycle, end to end: every edit a user makes to the code (add,
 * change, rename, move, delete) and every Terraform command they run
 * (destroy, -target, -replace, taint, a failed create) ends in exactly the
 * policy the code declares, checked on the emulator's full history of
 * writes, not only on the end state. The real `terraform` binary runs the
 * bundled runner, which talks to the emulator over HTTP.
 */
import { TerraformStack, TerraformVariable } from 'cdktf';
import { Construct } from 'constructs';
import {
  AuthorizationPolicyIamMember,
  DataAddressGroupIamPolicy,
  GoogleIamGrants,
  MigrationJobIamBinding,
  type IamCondition,
} from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { TerraformWorkspace, workspacesOfThisFile } from '../../support/terraform';
import { expectNoGap, historyOf } from '../../support/write-history';

jest.setTimeout(240_000);

const VIEWER = 'roles/networksecurity.authorizationPolicyViewer';
const ADMIN = 'roles/networksecurity.authorizationPolicyAdmin';
const DMS_VIEWER = 'roles/datamigration.viewer';
const DMS_ADMIN = 'roles/datamigration.admin';
const FOREIGN = { role: ADMIN, members: ['user:owner@example.com'] };
const X: IamCondition = { title: 'until-2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
const Y: IamCondition = { title: 'until-2031', expression: 'request.time < timestamp("2031-01-01T00:00:00Z")' };

let emulator: GoogleApiEmulator;
let counter = 0;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(async () => {
  await emulator.close();
});

/** A fresh authorization policy and migration job with someone else's binding on each. */
function resources(): { ap: string; mj: string } {
  counter++;
  const ap = `projects/demo-project/locations/global/authorizationPolicies/life-${counter}`;
  const mj = `projects/demo-project/locations/us-central1/migrationJobs/life-${counter}`;
  emulator.addResource(ap, { bindings: [FOREIGN] });
  emulator.addResource(mj, { bindings: [{ role: DMS_ADMIN, members: ['user:owner@example.com'] }] });
  return { ap, mj };
}

async function deployed(build: (stack: TerraformStack) => void, env: Record<string, string>): Promise<TerraformWorkspace> {
  const ws = await workspace(build);
  const applied = await ws.apply(env);
  expect(applied.output).toContain('Apply complete');
  return ws;
}

async function expectApplied(ws: TerraformWorkspace, env: Record<string, string>, summary: RegExp, extra: string[] = []): Promise<string> {
  const result = await ws.apply(env, extra);
  expect({ code: result.code, summary: summary.exec(result.output)?.[0] ?? result.output }).toEqual({
    code: 0,
    summary: expect.stringMatching(summary),
  });
  return result.output;
}

describe('delete from the code', () => {
  test('a deleted member grant is revoked by the next apply, and nothing else is touched', async () => {
    const { ap } = resources();
    const env = grantEnv(emulator);
    const grants = (names: string[]) => (s: TerraformStack) =>
      names.forEach(
        (n) => new AuthorizationPolicyIamMember(s, n, { name: ap, role: VIEWER, member: `user:${n.toLowerCase()}@example.com` }),
      );
    const ws = await deployed(grants(['Alice', 'Bob']), env);
    emulator.clearWrites();

    ws.resynth(grants(['Alice']));
    // The grant's instance (its destroy revokes) and its application.
    const output = await expectApplied(ws, env, /0 added, 0 changed, 2 destroyed/);
    expect(output).toMatch(/AuthorizationPolicyIamMember grants\/Bob .*removed user:bob@example.com/);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([['user:alice@example.com']]);
    expect(emulator.policy(ap).bindings).toEqual([FOREIGN, { role: VIEWER, members: ['user:alice@example.com'] }]);

    emulator.clearWrites();
    expect((await ws.destroy(env)).code).toBe(0);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([[]]);
    expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);
  });

  test('a deleted binding is removed by the next apply; the other binding is never rewritten', async () => {
    const { mj } = resources();
    const env = grantEnv(emulator);
    const both = (s: TerraformStack) => {
      new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com', 'user:b@example.com'] });
      new MigrationJobIamBinding(s, 'Auditors', { name: mj, role: 'roles/datamigration.auditor', members: ['group:audit@example.com'] });
    };
    const ws = await deployed(both, env);
    emulator.clearWrites();

    ws.resynth(
      (s) =>
        new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com', 'user:b@example.com'] }),
    );
    await expectApplied(ws, env, /0 added, 0 changed, 2 destroyed/);
    expect(emulator.writes(mj).map((w) => w.policy.bindings)).toEqual([
      [
        { role: DMS_ADMIN, members: ['user:owner@example.com'] },
        { role: DMS_VIEWER, members: ['user:a@example.com', 'user:b@example.com'] },
      ],
    ]);
  });

  test('the last grant of a stack: GoogleIamGrants.of(stack) keeps the grants resource, and the next apply revokes', async () => {
    const { ap } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed(
      (s) => new AuthorizationPolicyIamMember(s, 'Only', { name: ap, role: VIEWER, member: 'user:only@example.com' }),
      env,
    );
    expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:only@example.com']);

    // The documented procedure (README, "Lifecycle"): delete the grant, keep this one line for the apply.
    ws.resynth((s) => {
      GoogleIamGrants.of(s);
    });
    await expectApplied(ws, env, /0 added, 0 changed, 2 destroyed/);
    expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);
    // What stays is the stack's empty repair handle (see Drift), which goes with that line.
    expect(await ws.stateList()).toEqual(['terraform_data.google_iam_repair']);
  });

  test.each([
    [
      'a grant',
      (other: TerraformStack, mj: string) =>
        new MigrationJobIamBinding(other, 'Kept', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com'] }),
    ],
    [
      'a lookup',
      (other: TerraformStack) =>
        new DataAddressGroupIamPolicy(other, 'Lookup', { project: 'demo-project', location: 'global', addressGroupId: 'ag' }),
    ],
  ])(
    'the last grant of a stack, while another stack of the app still has %s: deleting it revokes it with no extra line of code',
    async (_label, inOtherStack) => {
      const { ap, mj } = resources();
      const env = grantEnv(emulator);
      const app = (withGrant: boolean) => (s: TerraformStack) => {
        inOtherStack(new TerraformStack(s.node.root, 'other'), mj);
        if (withGrant) new AuthorizationPolicyIamMember(s, 'Only', { name: ap, role: VIEWER, member: 'user:only@example.com' });
      };
      const ws = await deployed(app(true), env);
      expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:only@example.com']);
      emulator.clearWrites();

      ws.resynth(app(false));
      await expectApplied(ws, env, /0 added, 0 changed, 2 destroyed/);
      expect(historyOf(emulator, ap, VIEWER)).toEqual([[]]);
      expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);
    },
  );

  test('an app that stops using the library altogether: without GoogleIamGrants.of(stack), Terraform drops the grants resource without running its provisioners (why the README asks for it)', async () => {
    const { ap } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed(
      (s) => new AuthorizationPolicyIamMember(s, 'Only', { name: ap, role: VIEWER, member: 'user:only@example.com' }),
      env,
    );
    emulator.clearWrites();

    ws.resynth(() => undefined);
    await expectApplied(ws, env, /0 added, 0 changed, 3 destroyed/); // the grant, its application and the stack's repair handle
    expect(emulator.writes(ap)).toEqual([]);
    expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:only@example.com']);
  });
});

describe('the same grant declared twice, once with a value only Terraform knows', () => {
  const twins = (literal: boolean, variable: boolean, ap: string, mj: string) => (s: TerraformStack) => {
    const member = new TerraformVariable(s, 'member', { type: 'string', default: 'user:twin@example.com' });
    if (literal) new AuthorizationPolicyIamMember(s, 'Literal', { name: ap, role: VIEWER, member: 'user:twin@example.com' });
    if (variable) new AuthorizationPolicyIamMember(s, 'FromVariable', { name: ap, role: VIEWER, member: member.stringValue });
    new MigrationJobIamBinding(s, 'Other', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com'] });
  };

  test.each([
    ['the literal one', false, true],
    ['the one holding a Terraform value', true, false],
  ])('deleting %s keeps the grant the other still declares; deleting the other too revokes it', async (_label, literal, variable) => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed(twins(true, true, ap, mj), env);
    expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:twin@example.com']);
    // The plan says so, once Terraform knows the value.
    expect((await ws.plan(env)).output).toMatch(
      /Check block assertion failed[\s\S]*grants\/Literal and AuthorizationPolicyIamMember\s+grants\/FromVariable grant the same thing/,
    );
    emulator.clearWrites();

    ws.resynth(twins(literal, variable, ap, mj));
    const kept = await expectApplied(ws, env, /0 added, \d changed, 2 destroyed/);
    expect(kept).toMatch(/kept: another grant of this stack declared the same at the last apply/);
    expect(emulator.writes(ap)).toEqual([]);
    expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:twin@example.com']);

    ws.resynth(twins(false, false, ap, mj));
    await expectApplied(ws, env, /0 added, 0 changed, 2 destroyed/);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([[]]);
  });

  test('deleting both in one apply revokes the grant', async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed(twins(true, true, ap, mj), env);
    emulator.clearWrites();

    ws.resynth(twins(false, false, ap, mj));
    await expectApplied(ws, env, /0 added, 0 changed, 4 destroyed/);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([[]]);
    expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);
  });
});

describe('no gap on change', () => {
  test('adding and removing binding members rewrites the list in one write; members who stay never lack the role', async () => {
    const { mj } = resources();
    const env = grantEnv(emulator);
    const binding = (members: string[]) => (s: TerraformStack) =>
      new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_VIEWER, members });
    const ws = await deployed(binding(['user:a@example.com', 'user:b@example.com']), env);
    emulator.clearWrites();

    ws.resynth(binding(['user:a@example.com', 'user:b@example.com', 'user:c@example.com']));
    // The grant's instance is replaced (create before destroy), and so is its application.
    await expectApplied(ws, env, /2 added, 0 changed, 2 destroyed/);
    expect(historyOf(emulator, mj, DMS_VIEWER)).toEqual([['user:a@example.com', 'user:b@example.com', 'user:c@example.com']]);

    ws.resynth(binding(['user:b@example.com', 'user:c@example.com']));
    await expectApplied(ws, env, /2 added, 0 changed, 2 destroyed/);
    expect(historyOf(emulator, mj, DMS_VIEWER)).toEqual([
      ['user:a@example.com', 'user:b@example.com', 'user:c@example.com'],
      ['user:b@example.com', 'user:c@example.com'],
    ]);
    expectNoGap(emulator, mj, DMS_VIEWER, ['user:b@example.com', 'user:c@example.com']);
  });

  test('renaming or moving a construct changes nothing in Google (the grant is keyed by what it grants)', async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed((s) => {
      new AuthorizationPolicyIamMember(s, 'Alice', { name: ap, role: VIEWER, member: 'user:alice@example.com', condition: X });
      new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com'] });
    }, env);
    emulator.clearWrites();

    ws.resynth((s) => {
      const team = new Construct(s, 'Team');
      new AuthorizationPolicyIamMember(team, 'AliceRenamed', { name: ap, role: VIEWER, member: 'user:alice@example.com', condition: X });
      new MigrationJobIamBinding(s, 'DmsViewers', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com'] });
    });
    await expectApplied(ws, env, /0 added, 2 changed, 0 destroyed/);
    expect(emulator.writes()).toEqual([]);
  });

  test('a grant holding values only Terraform knows keeps its address when its construct is renamed', async () => {
    const { ap } = resources();
    const env = grantEnv(emulator);
    const grant = (id: string) => (s: TerraformStack) => {
      const member = new TerraformVariable(s, 'member', { type: 'string', default: 'user:from-variable@example.com' });
      new AuthorizationPolicyIamMember(s, id, { name: ap, role: VIEWER, member: member.stringValue });
    };
    const ws = await deployed(grant('Before'), env);
    expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:from-variable@example.com']);
    emulator.clearWrites();

    ws.resynth(grant('After'));
    await expectApplied(ws, env, /0 added, 1 changed, 0 destroyed/);
    expect(emulator.writes()).toEqual([]);
  });

  test('a member grant moves to another condition while another grant keeps the old one: the principal keeps it throughout', async () => {
    const { ap } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed((s) => {
      new AuthorizationPolicyIamMember(s, 'Moving', { name: ap, role: VIEWER, member: 'user:alice@example.com', condition: X });
      new AuthorizationPolicyIamMember(s, 'Staying', { name: ap, role: VIEWER, member: 'user:alice@example.com', condition: X });
    }, env);
    emulator.clearWrites();

    ws.resynth((s) => {
      new AuthorizationPolicyIamMember(s, 'Moving', { name: ap, role: VIEWER, member: 'user:alice@example.com', condition: Y });
      new AuthorizationPolicyIamMember(s, 'Staying', { name: ap, role: VIEWER, member: 'user:alice@example.com', condition: X });
    });
    await expectApplied(ws, env, /2 added, 1 changed, 0 destroyed/);
    expectNoGap(emulator, ap, VIEWER, ['user:alice@example.com'], X.title);
    expect(membersOf(emulator, ap, VIEWER, X.title)).toEqual(['user:alice@example.com']);
    expect(membersOf(emulator, ap, VIEWER, Y.title)).toEqual(['user:alice@example.com']);

    // Once neither declares the old condition, it goes.
    ws.resynth(
      (s) => new AuthorizationPolicyIamMember(s, 'Moving', { name: ap, role: VIEWER, member: 'user:alice@example.com', condition: Y }),
    );
    await expectApplied(ws, env, /0 added, 0 changed, 2 destroyed/);
    expect(membersOf(emulator, ap, VIEWER, X.title)).toEqual([]);
    expect(membersOf(emulator, ap, VIEWER, Y.title)).toEqual(['user:alice@example.com']);
  });
});

describe('failed creates', () => {
  test('a create that failed and is then deleted from the code leaves nothing behind: its revoke finds nothing to take back', async () => {
    const { ap } = resources();
    const denied = grantEnv(emulator, { GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.DENIED_TOKEN });
    const ws = await workspace(
      (s) => new AuthorizationPolicyIamMember(s, 'Denied', { name: ap, role: VIEWER, member: 'user:eve@example.com' }),
    );
    emulator.clearWrites();

    const failed = await ws.apply(denied);
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/PERMISSION_DENIED/);

    // The grant's instance was never tainted (only its application was), so deleting it runs the revoke, which
    // reads the policy: with the permission to read it, it finds nothing to take back and writes nothing.
    ws.resynth((s) => {
      GoogleIamGrants.of(s);
    });
    const output = await expectApplied(ws, grantEnv(emulator), /0 added, 0 changed, 2 destroyed/);
    expect(output).toMatch(/Denied .*user:eve@example\.com was already absent/);
    expect(emulator.writes(ap)).toEqual([]);
    expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);
  });

  test('after fixing the permissions, the next apply grants', async () => {
    const { ap } = resources();
    const build = (s: TerraformStack) =>
      new AuthorizationPolicyIamMember(s, 'Later', { name: ap, role: VIEWER, member: 'user:later@example.com' });
    const ws = await workspace(build);
    expect((await ws.apply(grantEnv(emulator, { GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.DENIED_TOKEN }))).code).not.toBe(0);
    expect(membersOf(emulator, ap, VIEWER)).toEqual([]);

    await expectApplied(ws, grantEnv(emulator), /1 added, 0 changed, 1 destroyed/);
    expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:later@example.com']);
  });

  test.each(['html', 'empty'] as const)(
    "a read answered with something that is not Google's JSON (%s, as from a captive proxy) fails the apply and writes nothing; the next apply grants",
    async (kind) => {
      const { ap } = resources();
      const ws = await workspace(
        (s) => new AuthorizationPolicyIamMember(s, 'Proxied', { name: ap, role: VIEWER, member: 'user:proxied@example.com' }),
      );
      emulator.clearWrites();
      emulator.setFaults({ rate: 1, kinds: [kind], methods: ['getIamPolicy'] });
      try {
        const failed = await ws.apply(grantEnv(emulator));
        expect(failed.code).not.toBe(0);
        expect(failed.output).toMatch(
          /failed to add user:proxied@example\.com: UNKNOWN: the endpoint answered HTTP 200 with (a body that is not JSON|an empty body), not Google's JSON/,
        );
        // Every read failed, so no read proved the policy unchanged; no write was ever sent.
        expect(failed.output).toMatch(
          /nothing of it was written \(Google refused every write, or none was sent\), though no fresh read could confirm it/,
        );
        expect(failed.output).not.toMatch(/left as it was/);
      } finally {
        emulator.setFaults(undefined);
      }
      expect(emulator.writes(ap)).toEqual([]);
      expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);

      await expectApplied(ws, grantEnv(emulator), /1 added, 0 changed, 1 destroyed/);
      expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:proxied@example.com']);
    },
  );
});

describe('Terraform commands', () => {
  const three = (ap: string, mj: string) => (s: TerraformStack) => {
    new AuthorizationPolicyIamMember(s, 'Alice', { name: ap, role: VIEWER, member: 'user:alice@example.com' });
    new AuthorizationPolicyIamMember(s, 'Bob', { name: ap, role: VIEWER, member: 'user:bob@example.com' });
    new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com'] });
  };

  test('terraform destroy removes everything the stack granted and nothing else', async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed(three(ap, mj), env);
    expect((await ws.destroy(env)).code).toBe(0);
    expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);
    expect(emulator.policy(mj).bindings).toEqual([{ role: DMS_ADMIN, members: ['user:owner@example.com'] }]);
  });

  test('destroy -target on one grant removes exactly it; the next apply grants it again', async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed(three(ap, mj), env);
    emulator.clearWrites();

    const bob = await ws.address('user:bob@example.com', {}, 'terraform_data.google_iam_grants[');
    expect(bob).toMatch(/^terraform_data\.google_iam_grants\["networksecurity:.*\|user:bob@example\.com"\]$/);
    expect((await ws.destroy(env, [`-target=${bob}`])).code).toBe(0);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([['user:alice@example.com']]);
    expect(emulator.writes(mj)).toEqual([]);

    // Terraform destroys what depends on the target too: every grant's application (they depend on the grants
    // resource as a whole). The next apply makes them again: bob's grant, and the others as they already are.
    emulator.clearWrites();
    await expectApplied(ws, env, /4 added, 0 changed, 0 destroyed/);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([['user:alice@example.com', 'user:bob@example.com']]);
    expect(emulator.writes(mj)).toEqual([]);
    expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:alice@example.com', 'user:bob@example.com']);
  });

  test('apply -target on one new grant creates exactly it', async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed(
      (s) => new AuthorizationPolicyIamMember(s, 'Alice', { name: ap, role: VIEWER, member: 'user:alice@example.com' }),
      env,
    );
    ws.resynth(three(ap, mj));
    const plan = await ws.plan(env);
    const bob = /# (terraform_data\.google_iam_grants_applied\["[^"]*user:bob@example\.com"\]) will be created/.exec(plan.output)?.[1];
    expect(bob).toBeDefined();
    emulator.clearWrites();

    // The grant's application, and what it depends on: the grants resource, whose new instances are recorded
    // (bob's and the binding's); only bob's is applied. The binding is applied by the next full apply.
    await expectApplied(ws, env, /3 added, 0 changed, 0 destroyed/, [`-target=${bob}`]);
    expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:alice@example.com', 'user:bob@example.com']);
    expect(emulator.writes(mj)).toEqual([]);

    await expectApplied(ws, env, /1 added, 0 changed, 0 destroyed/);
    expect(membersOf(emulator, mj, DMS_VIEWER)).toEqual(['user:a@example.com']);
  });

  test('apply -replace and taint re-grant without a gap, also after the grant was removed outside Terraform', async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed(three(ap, mj), env);
    const alice = await ws.address('user:alice@example.com', {}, 'terraform_data.google_iam_grants[');
    emulator.clearWrites();

    await expectApplied(ws, env, /2 added, 0 changed, 2 destroyed/, [`-replace=${alice}`]);
    expect(emulator.writes()).toEqual([]); // already granted: read, nothing to write
    expectNoGap(emulator, ap, VIEWER, ['user:alice@example.com', 'user:bob@example.com']);

    // Someone removes alice in the console; -replace puts her back in one write.
    emulator.addResource(ap, { bindings: [FOREIGN, { role: VIEWER, members: ['user:bob@example.com'] }] });
    await expectApplied(ws, env, /2 added, 0 changed, 2 destroyed/, [`-replace=${alice}`]);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([['user:alice@example.com', 'user:bob@example.com']]);

    // Either instance of a grant: tainting its application re-applies it alone.
    const viewers = await ws.address('datamigration:', {}, 'terraform_data.google_iam_grants_applied[');
    expect((await ws.run(['taint', viewers], env)).code).toBe(0);
    await expectApplied(ws, env, /1 added, 0 changed, 1 destroyed/);
    expectNoGap(emulator, mj, DMS_VIEWER, ['user:a@example.com']);
    expect(membersOf(emulator, mj, DMS_VIEWER)).toEqual(['user:a@example.com']);
  });
});
