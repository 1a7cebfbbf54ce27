import { applyEdit, applyEdits, type PolicyEdit } from '../../../lib/iam/policy-edit';
import type { Expr, Policy } from '../../../lib/iam/types';
import { validationError } from './expect-error';

const ROLE = 'roles/networksecurity.admin';
const OTHER_ROLE = 'roles/datamigration.editor';
const CONDITION = { expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', title: 'expires', description: 'until 2030' };
/** The same condition as Google returns it: all four fields present. */
const CONDITION_FROM_GOOGLE: Expr = { ...CONDITION, location: '' };

/** A policy as Google returns it, with fields this library does not know. */
const BASE: Policy = {
  version: 1,
  etag: 'BwXhqDzOBy0=',
  unknownTopLevel: { keep: true },
  bindings: [
    { role: OTHER_ROLE, members: ['group:ops@example.com'], unknownBindingField: 7 },
    { role: ROLE, members: ['user:Alice@Example.com'] },
  ],
  auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'ADMIN_READ', exemptedMembers: ['user:auditor@example.com'] }] }],
};

const CONDITIONAL: Policy = {
  version: 3,
  etag: 'abc',
  bindings: [
    { role: ROLE, members: ['user:alice@example.com'] },
    { role: ROLE, members: ['user:bob@example.com'], condition: CONDITION_FROM_GOOGLE },
  ],
};

/** Deep-freezes a value so a mutating edit throws. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(frozen);
    Object.freeze(value);
  }
  return value;
}

describe('applyEdit', () => {
  test.each<[string, Policy, PolicyEdit, Policy]>([
    [
      'addMember appends to the existing binding',
      BASE,
      { kind: 'addMember', role: ROLE, member: 'user:bob@example.com' },
      { ...BASE, bindings: [BASE.bindings![0], { role: ROLE, members: ['user:Alice@Example.com', 'user:bob@example.com'] }] },
    ],
    [
      'addMember of a present member (other case) is a no-op',
      BASE,
      { kind: 'addMember', role: ROLE, member: 'user:alice@example.COM' },
      BASE,
    ],
    [
      'addMember for a new role appends a binding',
      BASE,
      { kind: 'addMember', role: 'roles/owner', member: 'domain:example.com' },
      { ...BASE, bindings: [...BASE.bindings!, { role: 'roles/owner', members: ['domain:example.com'] }] },
    ],
    [
      'addMember with a condition adds a separate binding and raises the version to 3',
      BASE,
      { kind: 'addMember', role: ROLE, member: 'user:Alice@Example.com', condition: CONDITION },
      { ...BASE, version: 3, bindings: [...BASE.bindings!, { role: ROLE, members: ['user:Alice@Example.com'], condition: CONDITION }] },
    ],
    [
      'addMember to a conditional binding matches a condition read from Google',
      CONDITIONAL,
      { kind: 'addMember', role: ROLE, member: 'user:carol@example.com', condition: CONDITION },
      {
        ...CONDITIONAL,
        bindings: [
          CONDITIONAL.bindings![0],
          { role: ROLE, members: ['user:bob@example.com', 'user:carol@example.com'], condition: CONDITION_FROM_GOOGLE },
        ],
      },
    ],
    [
      'addMember to an empty policy',
      {},
      { kind: 'addMember', role: ROLE, member: 'user:a@example.com' },
      { bindings: [{ role: ROLE, members: ['user:a@example.com'] }] },
    ],
    [
      'removeMember keeps the others',
      { ...BASE, bindings: [{ role: ROLE, members: ['user:a@example.com', 'user:b@example.com'] }] },
      { kind: 'removeMember', role: ROLE, member: 'user:A@example.com' },
      { ...BASE, bindings: [{ role: ROLE, members: ['user:b@example.com'] }] },
    ],
    [
      'removeMember of the last member drops the binding',
      BASE,
      { kind: 'removeMember', role: ROLE, member: 'user:alice@example.com' },
      { ...BASE, bindings: [BASE.bindings![0]] },
    ],
    ['removeMember of an absent member is a no-op', BASE, { kind: 'removeMember', role: ROLE, member: 'user:nobody@example.com' }, BASE],
    [
      'removeMember only touches the binding with the same condition',
      CONDITIONAL,
      { kind: 'removeMember', role: ROLE, member: 'user:bob@example.com' },
      CONDITIONAL,
    ],
    [
      'removeMember from the conditional binding keeps version 3 though no condition is left',
      CONDITIONAL,
      { kind: 'removeMember', role: ROLE, member: 'user:bob@example.com', condition: CONDITION },
      { ...CONDITIONAL, bindings: [CONDITIONAL.bindings![0]] },
    ],
    [
      'removeMember can remove a deleted principal read from Google',
      { bindings: [{ role: ROLE, members: ['deleted:user:x@example.com?uid=1', 'user:y@example.com'] }] },
      { kind: 'removeMember', role: ROLE, member: 'deleted:user:X@example.com?uid=1' },
      { bindings: [{ role: ROLE, members: ['user:y@example.com'] }] },
    ],
    [
      'setBinding replaces the members exactly',
      BASE,
      { kind: 'setBinding', role: ROLE, members: ['group:devs@example.com', 'user:alice@example.com'] },
      { ...BASE, bindings: [BASE.bindings![0], { role: ROLE, members: ['group:devs@example.com', 'user:alice@example.com'] }] },
    ],
    [
      'setBinding drops repeated members, first spelling wins',
      BASE,
      { kind: 'setBinding', role: OTHER_ROLE, members: ['user:A@example.com', 'user:a@example.com'] },
      { ...BASE, bindings: [{ ...BASE.bindings![0], members: ['user:A@example.com'] }, BASE.bindings![1]] },
    ],
    [
      'setBinding for a new role and condition appends it',
      BASE,
      { kind: 'setBinding', role: OTHER_ROLE, members: ['user:a@example.com'], condition: CONDITION },
      { ...BASE, version: 3, bindings: [...BASE.bindings!, { role: OTHER_ROLE, members: ['user:a@example.com'], condition: CONDITION }] },
    ],
    [
      'setBinding with no members removes the binding',
      BASE,
      { kind: 'setBinding', role: ROLE, members: [] },
      { ...BASE, bindings: [BASE.bindings![0]] },
    ],
    ['setBinding with no members and no binding is a no-op', BASE, { kind: 'setBinding', role: 'roles/browser', members: [] }, BASE],
    [
      'removeBinding drops only that role + condition',
      CONDITIONAL,
      { kind: 'removeBinding', role: ROLE },
      { ...CONDITIONAL, bindings: [CONDITIONAL.bindings![1]] },
    ],
    ['removeBinding of an absent binding is a no-op', BASE, { kind: 'removeBinding', role: ROLE, condition: CONDITION }, BASE],
    [
      'removeBinding of the last binding leaves an empty list',
      { etag: 'e', bindings: [{ role: ROLE, members: ['user:a@example.com'] }] },
      { kind: 'removeBinding', role: ROLE },
      { etag: 'e', bindings: [] },
    ],
    ['removeBinding on a policy without bindings keeps them absent', { etag: 'e' }, { kind: 'removeBinding', role: ROLE }, { etag: 'e' }],
  ])('%s', (_name, input, edit, expected) => {
    const before = JSON.stringify(input);
    expect(applyEdit(frozen(input), edit)).toEqual(expected);
    expect(JSON.stringify(input)).toBe(before);
  });

  test('adding twice equals adding once', () => {
    const edit: PolicyEdit = { kind: 'addMember', role: ROLE, member: 'user:new@example.com', condition: CONDITION };
    const once = applyEdit(BASE, edit);
    expect(applyEdit(once, edit)).toEqual(once);
  });

  test('a missing description matches an empty one from Google', () => {
    const google: Policy = {
      version: 3,
      bindings: [
        { role: ROLE, members: ['user:a@example.com'], condition: { expression: 'true', title: 't', description: '', location: '' } },
      ],
    };
    expect(
      applyEdit(google, { kind: 'addMember', role: ROLE, member: 'user:a@example.com', condition: { expression: 'true', title: 't' } }),
    ).toEqual(google);
  });
});

describe('duplicate bindings with the same identity (Google can return them)', () => {
  const DUPLICATES: Policy = {
    bindings: [
      { role: ROLE, members: ['user:a@example.com'] },
      { role: OTHER_ROLE, members: ['user:x@example.com'] },
      { role: ROLE, members: ['user:b@example.com', 'user:a@example.com'] },
    ],
  };
  test.each<[string, PolicyEdit, Policy]>([
    ['a member in the second is present', { kind: 'addMember', role: ROLE, member: 'user:b@example.com' }, DUPLICATES],
    [
      'a new member goes to the first',
      { kind: 'addMember', role: ROLE, member: 'user:c@example.com' },
      {
        bindings: [{ role: ROLE, members: ['user:a@example.com', 'user:c@example.com'] }, DUPLICATES.bindings![1], DUPLICATES.bindings![2]],
      },
    ],
    [
      'removeMember removes from all, dropping the emptied one',
      { kind: 'removeMember', role: ROLE, member: 'user:a@example.com' },
      { bindings: [DUPLICATES.bindings![1], { role: ROLE, members: ['user:b@example.com'] }] },
    ],
    [
      'setBinding folds them into the first',
      { kind: 'setBinding', role: ROLE, members: ['user:z@example.com'] },
      { bindings: [{ role: ROLE, members: ['user:z@example.com'] }, DUPLICATES.bindings![1]] },
    ],
    ['removeBinding drops all', { kind: 'removeBinding', role: ROLE }, { bindings: [DUPLICATES.bindings![1]] }],
  ])('%s', (_name, edit, expected) => {
    expect(applyEdit(frozen(DUPLICATES), edit)).toEqual(expected);
  });
});

describe('version rules', () => {
  const add = (condition?: typeof CONDITION): PolicyEdit => ({ kind: 'addMember', role: ROLE, member: 'user:v@example.com', condition });
  test.each<[string, Policy, PolicyEdit, number | undefined]>([
    ['no version, no condition: none added', { bindings: [] }, add(), undefined],
    ['version 0 stays 0', { version: 0 }, add(), 0],
    ['version 1 stays 1', { version: 1 }, add(), 1],
    ['version 3 is never lowered', { version: 3 }, add(), 3],
    ['a condition raises no version to 3', {}, add(CONDITION), 3],
    ['a condition raises 1 to 3', { version: 1 }, add(CONDITION), 3],
    [
      'conditions already present raise an unversioned policy to 3',
      { bindings: [{ role: OTHER_ROLE, members: ['user:x@example.com'], condition: CONDITION }] },
      add(),
      3,
    ],
    [
      'removing the last conditional binding still writes 3',
      { version: 1, bindings: [{ role: ROLE, members: ['user:x@example.com'], condition: CONDITION }] },
      { kind: 'removeBinding', role: ROLE, condition: CONDITION },
      3,
    ],
  ])('%s', (_name, input, edit, version) => {
    expect(applyEdit(input, edit).version).toBe(version);
  });
});

describe('edits validate what they would write', () => {
  test.each<[string, PolicyEdit, string, RegExp]>([
    ['bad role', { kind: 'addMember', role: 'owner', member: 'user:a@example.com' }, 'role', /not a role name/],
    ['bad member', { kind: 'addMember', role: ROLE, member: 'User:a@example.com' }, 'member', /case-sensitive/],
    [
      'deleted member',
      { kind: 'addMember', role: ROLE, member: 'deleted:user:a@example.com?uid=1' },
      'member',
      /deleted: principal cannot be granted/,
    ],
    [
      'bad member in a set',
      { kind: 'setBinding', role: ROLE, members: ['user:a@example.com', 'alice'] },
      'members[1]',
      /missing type prefix/,
    ],
  ])('%s', (_name, edit, field, reason) => {
    const error = validationError(() => applyEdit(BASE, edit));
    expect(error.field).toBe(field);
    expect(error.reason).toMatch(reason);
  });
});

describe('applyEdits', () => {
  const users = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `user:u${from + i}@example.com`);
  const groups = (n: number): string[] => Array.from({ length: n }, (_, i) => `group:g${i}@example.com`);
  const withExemptions = (exempted: readonly string[]): Policy => ({
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: exempted }] }],
  });

  test('applies edits in order', () => {
    const result = applyEdits(BASE, [
      { kind: 'addMember', role: ROLE, member: 'user:b@example.com' },
      { kind: 'removeMember', role: ROLE, member: 'user:alice@example.com' },
      { kind: 'removeBinding', role: OTHER_ROLE },
    ]);
    expect(result).toEqual({ ...BASE, bindings: [{ role: ROLE, members: ['user:b@example.com'] }] });
  });

  test('no edits returns the policy unchanged', () => {
    expect(applyEdits(BASE, [])).toEqual(BASE);
  });

  test.each<[string, Policy, PolicyEdit]>([
    ['1,500 principals', withExemptions(users(1)), { kind: 'setBinding', role: ROLE, members: users(1499, 1) }],
    ['250 groups', withExemptions(groups(1)), { kind: 'setBinding', role: ROLE, members: groups(250).slice(1) }],
  ])('allows %s including audit exemptions', (_name, input, edit) => {
    expect(() => applyEdits(input, [edit])).not.toThrow();
  });

  test.each<[string, Policy, PolicyEdit, string]>([
    [
      '1,501 principals',
      withExemptions(users(1)),
      { kind: 'setBinding', role: ROLE, members: users(1500, 1) },
      'policy would hold 1,501 principals; Google allows at most 1,500',
    ],
    [
      '251 groups',
      withExemptions(groups(1)),
      { kind: 'setBinding', role: ROLE, members: groups(251).slice(1) },
      'policy would hold 251 groups and domains; Google allows at most 250',
    ],
  ])('refuses %s including audit exemptions', (_name, input, edit, reason) => {
    const error = validationError(() => applyEdits(input, [edit]));
    expect(error.field).toBe('policy');
    expect(error.reason).toBe(reason);
  });
});

describe('setMemberRoles: one principal holds exactly these roles', () => {
  const POLICY: Policy = {
    version: 3,
    bindings: [
      { role: ROLE, members: ['user:alice@example.com', 'user:bob@example.com'] },
      { role: OTHER_ROLE, members: ['user:Alice@Example.com'] },
      { role: ROLE, members: ['user:alice@example.com'], condition: CONDITION_FROM_GOOGLE },
      { role: 'roles/owner', members: ['user:alice@example.com'] },
    ],
  };

  test("takes the principal out of every binding not listed, adds it to the listed ones, and leaves others' members alone", () => {
    const result = applyEdits(frozen(POLICY), [
      { kind: 'setMemberRoles', member: 'user:ALICE@example.com', roles: [{ role: OTHER_ROLE }, { role: 'roles/browser' }] },
    ]);
    expect(result.bindings).toEqual([
      { role: ROLE, members: ['user:bob@example.com'] },
      { role: OTHER_ROLE, members: ['user:Alice@Example.com'] },
      { role: 'roles/browser', members: ['user:ALICE@example.com'] },
    ]);
  });

  test('a role under a condition is its own binding: listed with its condition it stays, without it it goes', () => {
    const result = applyEdits(POLICY, [
      { kind: 'setMemberRoles', member: 'user:alice@example.com', roles: [{ role: ROLE, condition: CONDITION }] },
    ]);
    expect(result.bindings).toEqual([
      { role: ROLE, members: ['user:bob@example.com'] },
      { role: ROLE, members: ['user:alice@example.com'], condition: CONDITION_FROM_GOOGLE },
    ]);
  });

  test('no roles: the principal is taken out of the policy', () => {
    const result = applyEdits(POLICY, [{ kind: 'setMemberRoles', member: 'user:alice@example.com', roles: [] }]);
    expect(result.bindings).toEqual([{ role: ROLE, members: ['user:bob@example.com'] }]);
  });

  test('validates the principal and each role, naming the field', () => {
    expect(validationError(() => applyEdit(POLICY, { kind: 'setMemberRoles', member: 'alice', roles: [] })).field).toBe('member');
    expect(
      validationError(() =>
        applyEdit(POLICY, { kind: 'setMemberRoles', member: 'user:a@example.com', roles: [{ role: ROLE }, { role: 'owner' }] }),
      ).field,
    ).toBe('roles[1].role');
  });
});

describe('many edits of one large binding', () => {
  test('a thousand members added and some removed in one applyEdits give what applying them one by one gives', () => {
    const users = Array.from({ length: 1_000 }, (_, i) => `user:u${i}@example.com`);
    const edits: PolicyEdit[] = [
      ...users.map((member): PolicyEdit => ({ kind: 'addMember', role: ROLE, member })),
      ...users
        .filter((_, i) => i % 3 === 0)
        .map((member): PolicyEdit => ({ kind: 'removeMember', role: ROLE, member: member.toUpperCase().replace('USER:', 'user:') })),
      { kind: 'addMember', role: ROLE, member: 'user:U0@example.com' },
    ];
    const together = applyEdits(BASE, edits);
    const oneByOne = edits.reduce((policy, edit) => applyEdit(policy, edit), BASE);
    expect(together).toEqual(oneByOne);
    expect(together.bindings![1].members).toHaveLength(1 + 666 + 1);
  });
});
