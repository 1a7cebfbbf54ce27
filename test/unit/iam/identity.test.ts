import { grantKey, type Grant } from '../../../lib/iam/grant';
import { BindingIdentity, PolicyIdentity, type ConditionIdentity } from '../../../lib/iam/identity';

const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const resource = { service: 'networksecurity', apiVersion: 'v1', name: AP };
const TIME = 'request.time < timestamp("2030-01-01T00:00:00Z")';
const until2030 = { title: 'until 2030', expression: TIME };
const member: Grant = { mode: 'member', resource, role: 'roles/viewer', member: 'user:Alice@Example.com' };
const binding: Grant = { mode: 'binding', resource, role: 'roles/viewer', members: ['user:a@example.com', 'group:g@example.com'] };
const policy: Grant = { mode: 'policy', resource, bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'] }] };

describe('BindingIdentity: how Google keys a binding (role + condition title, description, expression)', () => {
  const base = { expression: TIME, title: 't', description: 'd' };
  const same = (a: BindingIdentity, b: BindingIdentity) => a.key === b.key && a.matches({ role: b.role, condition: b.condition });

  test.each<[string, ConditionIdentity | undefined, ConditionIdentity | undefined, boolean]>([
    ['same fields', base, { ...base }, true],
    ['same fields in another order', base, { description: 'd', title: 't', expression: TIME }, true],
    ['extra Expr fields (location) ignored', base, { ...base, location: 'file.tf:3' } as ConditionIdentity, true],
    ['missing description equals empty', { expression: TIME, title: 't' }, { expression: TIME, title: 't', description: '' }, true],
    ['missing title equals empty', { expression: TIME }, { expression: TIME, title: '' }, true],
    ['no condition vs no condition', undefined, undefined, true],
    ['different title', base, { ...base, title: 'u' }, false],
    ['different description', base, { ...base, description: 'e' }, false],
    ['different expression', base, { ...base, expression: 'true' }, false],
    ['title is case-sensitive', base, { ...base, title: 'T' }, false],
    ['expression whitespace counts (Google compares text)', base, { ...base, expression: `${TIME} ` }, false],
    ['no condition vs empty condition', undefined, { expression: '', title: '' }, false],
    [
      'fields do not bleed into each other',
      { expression: 'c', title: 'a', description: 'b' },
      { expression: 'b\u0000c', title: 'a' },
      false,
    ],
    ['title and description are not interchangeable', { expression: 'x', title: 'a' }, { expression: 'x', description: 'a' }, false],
  ])('%s', (_name, a, b, expected) => {
    expect(same(BindingIdentity.of('roles/viewer', a), BindingIdentity.of('roles/viewer', b))).toBe(expected);
  });

  test('the role is part of the identity, case-sensitively; a role cannot pose as a condition', () => {
    expect(BindingIdentity.of('roles/viewer').key).not.toBe(BindingIdentity.of('roles/editor').key);
    expect(BindingIdentity.of('roles/viewer').key).not.toBe(BindingIdentity.of('roles/Viewer').key);
    const conditional = BindingIdentity.of('roles/viewer', base);
    const [head, tail] = conditional.key.split('\n');
    expect(BindingIdentity.of(`${head}\n${tail}`).key).not.toBe(conditional.key);
  });

  test('ofBinding reads a binding as declared or as Google returns it (unknown fields and members ignored)', () => {
    const read = { role: 'roles/viewer', members: ['user:x@example.com'], condition: { ...base, location: 'l' }, etag: 'x' };
    expect(BindingIdentity.ofBinding(read).key).toBe(BindingIdentity.of('roles/viewer', base).key);
    expect(BindingIdentity.of('roles/viewer', base).matches(read)).toBe(true);
    expect(BindingIdentity.of('roles/viewer').matches(read)).toBe(false);
    expect(BindingIdentity.of('roles/viewer').matches({ role: 'roles/viewer' })).toBe(true);
  });

  test('conditionTag (persisted in grant keys): the title cleaned and cut at 40, then 12 hex digits over the whole condition', () => {
    expect(BindingIdentity.of('roles/viewer').conditionTag).toBe('');
    expect(BindingIdentity.of('roles/viewer', until2030).conditionTag).toBe('|if:until_2030:7febe63dcabf');
    expect(BindingIdentity.of('roles/viewer', { ...until2030, description: '' }).conditionTag).toBe('|if:until_2030:7febe63dcabf');
    expect(BindingIdentity.of('roles/viewer', { ...until2030, description: 'expires' }).conditionTag).toBe('|if:until_2030:8677524e5626');
    expect(BindingIdentity.of('roles/viewer', { title: 'x'.repeat(50), expression: 'true' }).conditionTag).toMatch(
      /^\|if:x{40}:[0-9a-f]{12}$/,
    );
  });
});

describe('PolicyIdentity: which policy (service + name)', () => {
  const identity = PolicyIdentity.of(resource);

  test('key: service and name; two API versions of one service serve the same policy, two services do not', () => {
    expect(identity.key).toBe(`networksecurity:${AP}`);
    expect(PolicyIdentity.of({ ...resource, apiVersion: 'v1beta1' }).key).toBe(identity.key);
    expect(PolicyIdentity.of({ ...resource, service: 'datamigration' }).key).not.toBe(identity.key);
    expect(PolicyIdentity.of({ ...resource, getIamPolicyMethod: 'POST' } as typeof resource).key).toBe(identity.key);
  });

  test('bindingKey: one binding of one policy, unambiguous', () => {
    const viewer = BindingIdentity.of('roles/viewer', until2030);
    expect(identity.bindingKey(viewer)).toBe(
      PolicyIdentity.of({ ...resource, apiVersion: 'v2' }).bindingKey(
        BindingIdentity.of('roles/viewer', { ...until2030, description: '' }),
      ),
    );
    expect(identity.bindingKey(viewer)).not.toBe(identity.bindingKey(BindingIdentity.of('roles/viewer')));
    expect(identity.bindingKey(viewer)).not.toBe(PolicyIdentity.of({ ...resource, name: `${AP}2` }).bindingKey(viewer));
  });
});

describe("grantKey (persisted: a digest of it ends each grant's resource name): what a grant is, wherever it is declared", () => {
  test('member, binding and policy keys', () => {
    expect(grantKey(member)).toBe(`networksecurity:${AP}|roles/viewer|user:alice@example.com`);
    expect(grantKey(binding)).toBe(`networksecurity:${AP}|roles/viewer`);
    expect(grantKey(policy)).toBe(`networksecurity:${AP}|policy`);
  });

  test('a condition ends the key: its title (cleaned) and a digest of all three fields', () => {
    expect(grantKey({ ...member, condition: until2030 } as Grant)).toBe(
      `networksecurity:${AP}|roles/viewer|user:alice@example.com|if:until_2030:7febe63dcabf`,
    );
    expect(grantKey({ ...member, condition: { ...until2030, description: 'expires' } } as Grant)).toBe(
      `networksecurity:${AP}|roles/viewer|user:alice@example.com|if:until_2030:8677524e5626`,
    );
    expect(grantKey({ ...binding, condition: { title: 'a "quoted" ${title} über', description: 'd', expression: 'true' } } as Grant)).toBe(
      `networksecurity:${AP}|roles/viewer|if:a_quoted_title_ber:a110f9bd9a5d`,
    );
  });

  test("emails compare case-insensitively, as Google does; a binding's members are not part of its key", () => {
    expect(grantKey({ ...member, member: 'user:ALICE@example.COM' } as Grant)).toBe(grantKey(member));
    expect(grantKey({ ...binding, members: ['user:z@example.com'] } as Grant)).toBe(grantKey(binding));
  });

  test('the same grant on another service or resource is another grant; another API version is the same', () => {
    expect(grantKey({ ...member, resource: { ...resource, service: 'datamigration' } } as Grant)).not.toBe(grantKey(member));
    expect(grantKey({ ...member, resource: { ...resource, name: `${AP}2` } } as Grant)).not.toBe(grantKey(member));
    expect(grantKey({ ...member, resource: { ...resource, apiVersion: 'v1beta1' } } as Grant)).toBe(grantKey(member));
  });
});
