/**
 * ValidateResourceConfig and PlanResourceChange of the IAM resource types:
 * the synth validators on what Terraform knows (unknowns skipped), attribute
 * paths on diagnostics, computed values known where the configuration tells
 * them, and replacement only for another policy.
 */
import { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import { Unknown, UNKNOWN, type CtyObject } from '../../../lib/provider/framework/cty';
import { googleIamProvider } from '../../../lib/provider/google-iam-provider';
import { PrivateState } from '../../../lib/provider/framework/private-state';
import type { CallContext } from '../../../lib/provider/framework/resource';
import type { GoogleIamContext } from '../../../lib/provider/provider-context';
import { fullValue, ProviderHarness } from '../../support/provider-harness';

const provider = googleIamProvider({});
const type = (name: string) => provider.resources.find((r) => r.typeName === name)!;
const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const AG = 'projects/p-123456/locations/global/addressGroups/ag';
const AUTHZ = 'projects/p-123456/locations/us-central1/authzPolicies/lb-authz';
const ROLE = 'roles/networksecurity.viewer';

/** ValidateResourceConfig as the static validation sends it (`providerConfigured`: inside a plan or apply walk). */
function validate(typeName: string, values: CtyObject, providerConfigured = false): Diagnostics {
  const diagnostics = new Diagnostics();
  const resource = type(typeName);
  resource.validate!(fullValue(resource, values), diagnostics, { providerConfigured });
  return diagnostics;
}

test('every type name of the common brief, typed and generic', async () => {
  expect(provider.resources.map((r) => r.typeName)).toEqual(
    ['authorization_policy_', 'network_security_authz_policy_', 'address_group_', 'migration_job_', ''].flatMap((infix) =>
      ['member', 'binding', 'policy', 'members', 'member_roles'].map((mode) => `googleiam_${infix}iam_${mode}`),
    ),
  );
  expect(provider.dataSources.map((d) => d.typeName)).toEqual([
    'googleiam_authorization_policy_iam_policy',
    'googleiam_network_security_authz_policy_iam_policy',
    'googleiam_address_group_iam_policy',
    'googleiam_migration_job_iam_policy',
    'googleiam_iam_policy',
    'googleiam_import_job',
  ]);
});

describe('validate', () => {
  test('inside a plan or apply walk the same refusal is a warning saying the apply refuses it (an error would stop terraform destroy)', async () => {
    const values = { name: AUTHZ, role: ROLE, member: 'user:a@example.com' };
    const diagnostics = validate('googleiam_authorization_policy_iam_member', values, true);
    expect(diagnostics.hasError).toBe(false);
    expect(diagnostics.all).toHaveLength(1);
    expect(diagnostics.all[0]).toMatchObject({ severity: 'WARNING', attribute: ['name'] });
    expect(diagnostics.all[0].detail).toContain('wrong shape');
    expect(diagnostics.all[0].detail).toContain('terraform apply refuses it before sending anything to Google');
    expect(validate('googleiam_authorization_policy_iam_member', values, false).all.map((d) => d.severity)).toEqual(['ERROR']);
  });

  test('a resource with several mistakes hears all of them in one validation, each on its attribute', async () => {
    const diagnostics = validate('googleiam_authorization_policy_iam_member', {
      name: AP,
      role: 'networksecurity.viewer',
      member: 'alice@example.com',
      condition: { title: 'soon', expression: 'request.time < ' },
    });
    const invalid = diagnostics.all.filter((d) => d.summary === 'Invalid IAM grant');
    expect(invalid.map((d) => d.attribute)).toEqual([['role'], ['member'], ['condition', 'expression']]);
    expect(invalid.every((d) => d.severity === 'ERROR')).toBe(true);
  });

  test('a bulk grant: every wrong entry, each named', async () => {
    const diagnostics = validate('googleiam_authorization_policy_iam_members', {
      name: AP,
      grant: [
        { role: ROLE, member: 'bob' },
        { role: ROLE, member: 'user:ok@example.com' },
        { role: 'viewer', member: 'user:carol@example.com' },
      ],
    });
    const invalid = diagnostics.all.filter((d) => d.summary === 'Invalid IAM grant');
    expect(invalid.map((d) => d.attribute)).toEqual([
      ['grant', 0, 'member'],
      ['grant', 2, 'role'],
    ]);
    expect(invalid[1].detail).toContain('(in viewer for user:carol@example.com)');
  });

  test('a typed grant whose name is of another collection is refused, on the name', async () => {
    const diagnostics = validate('googleiam_authorization_policy_iam_member', { name: AG, role: ROLE, member: 'user:a@example.com' });
    expect(diagnostics.all).toEqual([
      expect.objectContaining({ severity: 'ERROR', attribute: ['name'], detail: expect.stringContaining('authorizationPolicies') }),
    ]);
  });

  test.each([
    ['authorization_policy', AUTHZ, 'network_security_authz_policy', 'authz policy'],
    ['network_security_authz_policy', AP, 'authorization_policy', 'authorization policy'],
  ])(
    "googleiam_%s_iam_* given the other authorization-policy collection's name points at the type that takes it",
    (infix, name, taker, label) => {
      const grants: Record<string, CtyObject> = {
        member: { role: ROLE, member: 'user:a@example.com' },
        binding: { role: ROLE, members: ['user:a@example.com'] },
        policy: { bindings: [] },
      };
      for (const [mode, grant] of Object.entries(grants)) {
        const diagnostics = validate(`googleiam_${infix}_iam_${mode}`, { name, ...grant });
        expect(diagnostics.all).toEqual([
          expect.objectContaining({
            severity: 'ERROR',
            attribute: ['name'],
            detail: expect.stringContaining(
              `wrong shape: this is an ${label} name, which googleiam_${taker}_iam_${mode} takes; expected the `,
            ),
          }),
        ]);
      }
    },
  );

  test('bad values are reported on their attribute; unknown values are skipped', async () => {
    expect(validate('googleiam_authorization_policy_iam_member', { name: AP, role: ROLE, member: 'alice' }).all[0].attribute).toEqual([
      'member',
    ]);
    expect(
      validate('googleiam_authorization_policy_iam_binding', { name: AP, role: ROLE, members: ['user:a@example.com', 'bob'] }).all[0]
        .attribute,
    ).toEqual(['members', 1]);
    const unknowns = validate('googleiam_authorization_policy_iam_binding', {
      name: UNKNOWN,
      role: UNKNOWN,
      members: [UNKNOWN, 'user:a@example.com'],
      condition: { expression: UNKNOWN, title: 'until 2030', description: null },
    });
    expect(unknowns.all).toEqual([]);
    expect(
      validate('googleiam_authorization_policy_iam_member', {
        name: AP,
        role: ROLE,
        member: 'user:a@example.com',
        condition: { expression: 'request.time <', title: 't', description: null },
      }).all[0].attribute,
    ).toEqual(['condition', 'expression']);
  });

  test("a policy's audit configs are checked down to the log type", async () => {
    const diagnostics = validate('googleiam_authorization_policy_iam_policy', {
      name: AP,
      bindings: [{ role: ROLE, members: ['user:a@example.com'], condition: null }],
      audit_configs: [{ service: 'allServices', audit_log_configs: [{ log_type: 'EVERYTHING', exempted_members: null }] }],
    });
    expect(diagnostics.all[0].attribute).toEqual(['audit_configs', 0, 'audit_log_configs', 0, 'log_type']);
  });

  test('a generic grant is checked against the table: the service, the version, a writable collection', async () => {
    const generic = (values: CtyObject) => validate('googleiam_iam_member', { role: ROLE, member: 'user:a@example.com', ...values });
    expect(generic({ service: 'networksecurity', api_version: 'v1', name: AP }).all).toEqual([]);
    expect(generic({ service: 'networksecurity', api_version: 'v9', name: AP }).all[0].attribute).toEqual(['api_version']);
    expect(generic({ service: 'networksecurity', api_version: 'v1', name: 'projects/p/nothing/x' }).all[0].attribute).toEqual(['name']);
    expect(generic({ service: 'networksecurity', api_version: 'v1', name: AP, get_iam_policy_method: 'PUT' }).all[0].attribute).toEqual([
      'get_iam_policy_method',
    ]);
  });
});

describe('plan', () => {
  const member = type('googleiam_authorization_policy_iam_member');
  const proposed = (values: CtyObject) => fullValue(member, { name: AP, role: ROLE, member: 'user:a@example.com', ...values });

  test('on create, the id is known from the configuration, the etag only after apply', async () => {
    const { planned, requiresReplace } = await member.plan!(
      { prior: null, proposed: proposed({}), config: proposed({}) },
      new Diagnostics(),
    );
    expect(planned).toMatchObject({ id: `${AP}/${ROLE}/user:a@example.com` });
    expect(planned.etag).toBeInstanceOf(Unknown);
    expect(requiresReplace).toEqual([]);
    const unknownMember = await member.plan!(
      { prior: null, proposed: proposed({ member: UNKNOWN }), config: proposed({ member: UNKNOWN }) },
      new Diagnostics(),
    );
    expect(unknownMember.planned.id).toBeInstanceOf(Unknown);
  });

  test('a changed member, role or condition is an update in place; another name replaces', async () => {
    const prior = { ...proposed({}), id: 'old', etag: 'e1' };
    const plan = async (values: CtyObject) =>
      await member.plan!({ prior, proposed: { ...prior, ...values }, config: proposed(values) }, new Diagnostics());
    expect((await plan({ member: 'user:b@example.com' })).requiresReplace).toEqual([]);
    expect((await plan({ condition: { expression: 'true', title: 't', description: null } })).requiresReplace).toEqual([]);
    expect((await plan({ name: AP.replace(/ap$/, 'other') })).requiresReplace).toEqual([['name']]);
    const unchanged = await plan({});
    expect(unchanged.planned.etag).toBe('e1');
  });

  describe('another api_version of the same resource (generic kinds)', () => {
    const SECRET = 'projects/p-123456/secrets/db-password';
    const generic = (values: CtyObject) => ({ service: 'secretmanager', api_version: 'v1beta1', name: SECRET, ...values });
    /** A plan from `prior` (values of `typeName`, etag e1) to `prior` with `values`, in a configured provider's call when `call` is given. */
    async function plan(typeName: string, prior: CtyObject, values: CtyObject, call?: CallContext<GoogleIamContext>) {
      const resource = type(typeName);
      const state = { ...fullValue(resource, generic(prior)), id: 'old', etag: 'e1' };
      const proposed = { ...state, ...values };
      const diagnostics = new Diagnostics();
      const change = await resource.plan!(
        { prior: state, proposed, config: fullValue(resource, generic({ ...prior, ...values })) },
        diagnostics,
        call,
      );
      expect(diagnostics.all).toEqual([]);
      return change;
    }
    const harnesses: ProviderHarness[] = [];
    /** A configured provider's call, of a process of its own (a run plans each grant once: no claims of another). */
    async function call(): Promise<CallContext<GoogleIamContext>> {
      const harness = await ProviderHarness.configure({});
      harnesses.push(harness);
      return harness.call;
    }
    afterAll(() => harnesses.forEach((h) => h.stop()));
    const asMember = { role: 'roles/secretmanager.secretAccessor', member: 'user:a@example.com' };

    test('is an update in place; another service or name replaces', async () => {
      const member = 'googleiam_iam_member';
      expect((await plan(member, asMember, { api_version: 'v1' })).requiresReplace).toEqual([]);
      expect((await plan(member, asMember, { get_iam_policy_method: 'POST' })).requiresReplace).toEqual([]);
      expect((await plan(member, asMember, { name: `${SECRET}-2` })).requiresReplace).toEqual([['name']]);
      expect((await plan(member, asMember, { service: 'secretmanagerx' })).requiresReplace).toEqual([['service']]);
    });

    test('keeps the etag (nothing to write) for every kind; another grant, or entries to grant again, leave it to the apply', async () => {
      const kinds: [string, CtyObject][] = [
        ['googleiam_iam_member', asMember],
        ['googleiam_iam_binding', { role: asMember.role, members: [asMember.member] }],
        ['googleiam_iam_policy', { bindings: [{ role: asMember.role, members: [asMember.member], condition: null }] }],
        ['googleiam_iam_members', { grant: [{ role: asMember.role, member: asMember.member, condition: null }], missing_grants: [] }],
        ['googleiam_iam_member_roles', { member: asMember.member, grant: [{ role: asMember.role, condition: null }] }],
      ];
      for (const [typeName, values] of kinds) {
        const change = await plan(typeName, values, { api_version: 'v1' }, await call());
        expect([typeName, change.planned.api_version, change.planned.etag, change.requiresReplace]).toEqual([typeName, 'v1', 'e1', []]);
        // Without the provider's call (its private state unread), the plan cannot tell: the etag is left to the apply.
        expect((await plan(typeName, values, { api_version: 'v1' })).planned.etag).toBeInstanceOf(Unknown);
      }
      const changedMember = await plan('googleiam_iam_member', asMember, { api_version: 'v1', member: 'user:b@example.com' }, await call());
      expect(changedMember.planned.etag).toBeInstanceOf(Unknown);
      const missing = await plan(
        'googleiam_iam_members',
        {
          grant: [{ role: asMember.role, member: asMember.member, condition: null }],
          missing_grants: [`${asMember.role}: ${asMember.member}`],
        },
        { api_version: 'v1' },
        await call(),
      );
      expect(missing.planned.etag).toBeInstanceOf(Unknown);
      // The last write's outcome unknown: granted again.
      const unsettledCall = { ...(await call()), private: PrivateState.decode(null) };
      unsettledCall.private.set('unsettled', '1');
      expect((await plan('googleiam_iam_member', asMember, { api_version: 'v1' }, unsettledCall)).planned.etag).toBeInstanceOf(Unknown);
    });

    test("a bucket's other spelling (b/x, projects/_/buckets/x) is the same policy: in place, no write; another bucket replaces", async () => {
      const bucket = { service: 'storage', api_version: 'v1', role: 'roles/storage.objectViewer', member: 'user:a@example.com' };
      const spelt = (name: string) => ({ ...bucket, name });
      const member = 'googleiam_iam_member';
      for (const [from, to] of [
        ['b/assets', 'projects/_/buckets/assets'],
        ['projects/_/buckets/assets', 'b/assets'],
      ]) {
        const change = await plan(member, spelt(from), { name: to }, await call());
        expect([change.planned.name, change.planned.etag, change.requiresReplace]).toEqual([to, 'e1', []]);
      }
      expect((await plan(member, spelt('b/assets'), { name: 'projects/_/buckets/other' }, await call())).requiresReplace).toEqual([
        ['name'],
      ]);
      // The same path in another service is another policy.
      expect((await plan(member, spelt('b/assets'), { service: 'storagex' })).requiresReplace).toEqual([['service']]);
    });
  });
});
