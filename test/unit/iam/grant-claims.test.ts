/**
 * Which grants can stand together on one policy (lib/iam/grant-claims.ts): every pair of kinds, each way round.
 */
import type { Grant, IamResource } from '../../../lib/iam/grant';
import fc from 'fast-check';
import { ClaimIndex, claimOverlap, claimsOf } from '../../../lib/iam/grant-claims';

const resource: IamResource = {
  service: 'networksecurity',
  apiVersion: 'v1',
  name: 'projects/p-1/locations/global/authorizationPolicies/ap',
};
const VIEWER = 'roles/networksecurity.viewer';
const EDITOR = 'roles/networksecurity.editor';
const CONDITION = { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
const alice = 'user:alice@example.com';
const bob = 'user:bob@example.com';
const carol = 'user:carol@example.com';

const member = (role: string, m: string, condition?: typeof CONDITION): Grant => ({ mode: 'member', resource, role, member: m, condition });
const members = (...grants: [string, string][]): Grant => ({
  mode: 'members',
  resource,
  grants: grants.map(([role, m]) => ({ role, member: m })),
});
const binding = (role: string, ms: string[], condition?: typeof CONDITION): Grant => ({
  mode: 'binding',
  resource,
  role,
  members: ms,
  condition,
});
const policy = (...bindings: [string, string[]][]): Grant => ({
  mode: 'policy',
  resource,
  bindings: bindings.map(([role, ms]) => ({ role, members: ms })),
});
const roles = (m: string, ...rs: string[]): Grant => ({ mode: 'memberRoles', resource, member: m, roles: rs.map((role) => ({ role })) });

/** The overlap of two grants, judged both ways round: the verdict must not depend on which is asked first. */
function overlap(a: Grant, b: Grant) {
  const ab = claimOverlap(claimsOf(a), claimsOf(b));
  const ba = claimOverlap(claimsOf(b), claimsOf(a));
  expect(ba?.kind).toBe(ab?.kind);
  return ab;
}

describe('grants that stand together', () => {
  test.each<[string, Grant, Grant]>([
    ['two member grants of other principals', member(VIEWER, alice), member(VIEWER, bob)],
    ['a member grant with and without a condition', member(VIEWER, alice), member(VIEWER, alice, CONDITION)],
    ['a member grant and a bulk grant of other entries', member(VIEWER, alice), members([EDITOR, alice], [VIEWER, bob])],
    ['a binding and a member grant of another role', binding(VIEWER, [carol]), member(EDITOR, alice)],
    ['a binding and the same role under a condition', binding(VIEWER, [carol]), member(VIEWER, alice, CONDITION)],
    ['two bindings of one role, one conditional', binding(VIEWER, [carol]), binding(VIEWER, [alice], CONDITION)],
    ["a principal's roles and a grant of another principal", roles(alice, VIEWER), members([EDITOR, bob])],
    ["a principal's roles and a binding without it", roles(alice, VIEWER), binding(EDITOR, [bob])],
    ["two principals' roles", roles(alice, VIEWER), roles(bob, VIEWER, EDITOR)],
  ])('%s', (_name, a, b) => {
    expect(overlap(a, b)).toBeUndefined();
  });
});

describe('grants that cannot', () => {
  test.each<[string, Grant, Grant, 'duplicate' | 'conflict', string]>([
    ['the same member entry twice', member(VIEWER, alice), members([VIEWER, 'user:ALICE@example.com']), 'duplicate', `${VIEWER}: ${alice}`],
    ['a policy grant beside anything', policy([VIEWER, [alice]]), member(EDITOR, bob), 'conflict', `the IAM policy of ${resource.name}`],
    ['two policy grants', policy([VIEWER, [alice]]), policy([EDITOR, [bob]]), 'conflict', `the IAM policy of ${resource.name}`],
    ['two bindings of one role', binding(VIEWER, [alice]), binding(VIEWER, [bob]), 'conflict', VIEWER],
    ['a binding and a member grant in it', binding(VIEWER, [carol]), member(VIEWER, alice), 'conflict', `${VIEWER}: ${alice}`],
    ['a binding and a member grant it lists too', binding(VIEWER, [alice]), member(VIEWER, alice), 'conflict', `${VIEWER}: ${alice}`],
    [
      'a binding and a bulk entry in it',
      binding(EDITOR, [carol]),
      members([VIEWER, bob], [EDITOR, alice]),
      'conflict',
      `${EDITOR}: ${alice}`,
    ],
    // Issue 49, finding 3: each apply undid the other.
    ["a principal's roles and a bulk entry of it", roles(alice, VIEWER), members([EDITOR, alice], [EDITOR, bob]), 'conflict', alice],
    ["a principal's roles and a member grant of it", roles(alice, VIEWER), member(VIEWER, alice), 'conflict', alice],
    ["a principal's roles and a binding listing it", roles(alice, VIEWER), binding(EDITOR, [alice, bob]), 'conflict', alice],
    [
      "a principal's roles and a binding of one of its roles",
      binding(VIEWER, [carol]),
      roles(bob, VIEWER, EDITOR),
      'conflict',
      `${VIEWER}: ${bob}`,
    ],
    ["two of one principal's roles", roles(alice, VIEWER), roles('user:ALICE@example.com', EDITOR), 'conflict', 'user:ALICE@example.com'],
  ])('%s', (_name, a, b, kind, grant) => {
    const found = overlap(a, b);
    expect(found?.kind).toBe(kind);
    expect([claimOverlap(claimsOf(a), claimsOf(b))?.grant, claimOverlap(claimsOf(b), claimsOf(a))?.grant]).toContain(grant);
    expect(found?.why).toBeTruthy();
  });
});

test('claims are plain strings: they survive JSON, as the run folder carries them', () => {
  const claims = claimsOf(binding(VIEWER, [alice], CONDITION));
  expect(JSON.parse(JSON.stringify(claims))).toEqual(claims);
  expect(claimOverlap(JSON.parse(JSON.stringify(claims)), claimsOf(member(VIEWER, bob, CONDITION)))?.kind).toBe('conflict');
});

describe('ClaimIndex finds what comparing every pair finds', () => {
  const principals = [alice, bob, carol, 'user:ALICE@example.com'];
  const someRole = fc.constantFrom(VIEWER, EDITOR);
  const someMember = fc.constantFrom(...principals);
  const someCondition = fc.option(fc.constant(CONDITION), { nil: undefined });
  const someGrant: fc.Arbitrary<Grant> = fc.oneof(
    fc.tuple(someRole, someMember, someCondition).map(([r, m, c]) => member(r, m, c)),
    fc.array(fc.tuple(someRole, someMember), { maxLength: 3 }).map((entries) => members(...entries)),
    fc.tuple(someRole, fc.array(someMember, { minLength: 1, maxLength: 2 }), someCondition).map(([r, ms, c]) => binding(r, ms, c)),
    fc.tuple(someMember, fc.array(someRole, { maxLength: 2 })).map(([m, rs]) => roles(m, ...rs)),
    fc.array(fc.tuple(someRole, fc.array(someMember, { minLength: 1, maxLength: 2 })), { maxLength: 2 }).map((bs) => policy(...bs)),
  );

  test('for any grants on one policy (2,000 cases)', () => {
    fc.assert(
      fc.property(fc.array(someGrant, { minLength: 1, maxLength: 8 }), (grants) => {
        const index = new ClaimIndex<number>();
        grants.forEach((g, i) => index.add(i, claimsOf(g)));
        grants.forEach((g, i) => {
          const byIndex = index
            .overlapping(claimsOf(g), i)
            .map((o) => o.id)
            .sort();
          const byPairs = grants.flatMap((other, j) => (j !== i && claimOverlap(claimsOf(g), claimsOf(other)) ? [j] : []));
          expect(byIndex).toEqual(byPairs);
        });
      }),
      { numRuns: 2000 },
    );
  });

  test('adding a grant again replaces what it claimed', () => {
    const index = new ClaimIndex<string>();
    index.add('a', claimsOf(binding(VIEWER, [carol])));
    index.add('a', claimsOf(binding(EDITOR, [carol])));
    expect(index.overlapping(claimsOf(member(VIEWER, alice)))).toEqual([]);
    expect(index.overlapping(claimsOf(member(EDITOR, alice))).map((o) => o.id)).toEqual(['a']);
  });
});
