import { grantDrift } from '../../../lib/iam/drift';
import type { Grant } from '../../../lib/iam/grant';
import type { Policy } from '../../../lib/iam/types';

const resource = { service: 'networksecurity', apiVersion: 'v1', name: 'projects/p/locations/global/authorizationPolicies/ap' };
const T = { title: 't', expression: 'true' };
const member = (m: string, condition?: typeof T): Grant => ({
  mode: 'member',
  resource,
  role: 'roles/a.viewer',
  member: m,
  ...(condition ? { condition } : {}),
});
const binding = (members: string[], condition?: typeof T): Grant => ({
  mode: 'binding',
  resource,
  role: 'roles/a.viewer',
  members,
  ...(condition ? { condition } : {}),
});
const policy = (bindings: Policy['bindings'], extra: Partial<Policy> = {}): Policy => ({ etag: 'x', version: 3, bindings, ...extra });

describe('a member grant: only its principal in its role and condition counts', () => {
  test.each([
    ['present', policy([{ role: 'roles/a.viewer', members: ['user:a@example.com'] }]), []],
    [
      'present in another spelling (emails compare case-insensitively)',
      policy([{ role: 'roles/a.viewer', members: ['user:A@Example.com'] }]),
      [],
    ],
    [
      'present in a second binding of the same role and condition',
      policy([
        { role: 'roles/a.viewer', members: ['user:b@example.com'] },
        { role: 'roles/a.viewer', members: ['user:a@example.com'] },
      ]),
      [],
    ],
    ['missing', policy([{ role: 'roles/a.viewer', members: ['user:b@example.com'] }]), ['user:a@example.com is missing']],
    [
      'only under a condition',
      policy([{ role: 'roles/a.viewer', members: ['user:a@example.com'], condition: T }]),
      ['user:a@example.com is missing'],
    ],
    ['an empty policy', { etag: 'ACAB' }, ['user:a@example.com is missing']],
  ] as const)('%s', (_label, read, expected) => {
    expect(grantDrift(member('user:a@example.com'), read as Policy)).toEqual(expected);
  });

  test('others in the role, other roles, other conditions and audit configs are not its drift', () => {
    const read = policy(
      [
        { role: 'roles/a.viewer', members: ['user:a@example.com', 'user:stranger@example.com'] },
        { role: 'roles/other', members: ['user:x@example.com'] },
        { role: 'roles/a.viewer', members: ['user:y@example.com'], condition: { title: 'theirs', expression: 'false' } },
      ],
      { auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }] },
    );
    expect(grantDrift(member('user:a@example.com'), read)).toEqual([]);
  });
});

describe('a binding: its whole member list counts', () => {
  test.each([
    ['as declared', [{ role: 'roles/a.viewer', members: ['user:b@example.com', 'user:a@example.com'] }], []],
    ['a principal missing', [{ role: 'roles/a.viewer', members: ['user:a@example.com'] }], ['user:b@example.com is missing']],
    [
      'a stranger added',
      [{ role: 'roles/a.viewer', members: ['user:a@example.com', 'user:b@example.com', 'user:c@example.com'] }],
      ['user:c@example.com was added outside this code'],
    ],
    [
      'both',
      [{ role: 'roles/a.viewer', members: ['user:a@example.com', 'user:c@example.com', 'user:d@example.com'] }],
      ['user:b@example.com is missing', 'user:c@example.com, user:d@example.com were added outside this code'],
    ],
    [
      'gone',
      [{ role: 'roles/other', members: ['user:a@example.com'] }],
      ['the binding is gone (it should hold user:a@example.com, user:b@example.com)'],
    ],
  ] as const)('%s', (_label, bindings, expected) => {
    expect(grantDrift(binding(['user:a@example.com', 'user:b@example.com']), policy(bindings as Policy['bindings']))).toEqual(expected);
  });

  test('a conditional binding is matched by its condition', () => {
    const read = policy([{ role: 'roles/a.viewer', members: ['user:a@example.com'], condition: { ...T, location: 'x.cel' } }]);
    expect(grantDrift(binding(['user:a@example.com'], T), read)).toEqual([]);
    expect(grantDrift(binding(['user:a@example.com']), read)).toEqual(['the binding is gone (it should hold user:a@example.com)']);
  });
});

test('a policy grant: declared bindings changed or gone, and bindings it does not declare', () => {
  const grant: Grant = {
    mode: 'policy',
    resource,
    bindings: [
      { role: 'roles/a.viewer', members: ['user:a@example.com'] },
      { role: 'roles/a.admin', members: ['user:b@example.com'], condition: T },
    ],
  };
  expect(
    grantDrift(
      grant,
      policy(
        [
          { role: 'roles/a.viewer', members: ['user:a@example.com'] },
          { role: 'roles/a.admin', members: ['user:b@example.com'], condition: T },
        ],
        { auditConfigs: [{ service: 'allServices' }] },
      ),
    ),
  ).toEqual([]);
  expect(
    grantDrift(
      grant,
      policy([
        { role: 'roles/a.viewer', members: ['user:a@example.com', 'user:x@example.com'] },
        { role: 'roles/a.editor', members: ['user:e@example.com'] },
      ]),
    ),
  ).toEqual([
    'binding roles/a.viewer: user:x@example.com was added outside this code',
    'binding roles/a.admin (condition "t"): the binding is gone (it should hold user:b@example.com)',
    'binding roles/a.editor is not declared (members: user:e@example.com)',
  ]);
});
