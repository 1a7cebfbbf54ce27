import { entryKey, type MembersGrant } from '../../iam/grant';
import type { Policy } from '../../iam/types';
import type { ResourceType } from '../framework/resource';
import type { Attribute, Block } from '../framework/schema';
import { describePolicyMember } from '../../iam/policy-diff';
import type { GoogleIamContext } from '../provider-context';
import { partial } from '../framework/cty-values';
import { grantResourceType, type GrantKind, type GrantModel } from './grant-resource';
import { decodeCondition, encodeCondition, knownElements, partialCondition, type ConditionModel } from './grant-values';
import type { IamTypeDescriptor } from './iam-type-descriptor';
import { CONDITION_BLOCK, MEMBER_ATTRIBUTE, ROLE_ATTRIBUTE } from './iam-schema';
import { UNRESOLVED_RESOURCE } from './unresolved-resource';

/** One entry of a bulk grant: as one `_iam_member` grants. */
export interface MemberEntryModel {
  readonly role: string;
  readonly member: string;
  readonly condition?: ConditionModel;
}

/**
 * `googleiam_<type>_iam_members`: many principals granted roles on one
 * resource's policy, each `grant` block as one `_iam_member` would grant it
 * (non-authoritative: what the blocks do not name is left alone). One
 * resource in Terraform's state for any number of grants: Terraform's cost
 * is per resource.
 */
export interface IamMembersModel extends GrantModel {
  readonly grants: readonly MemberEntryModel[];
  /** `missing_grants`: the entries Google's policy lacked at the last refresh, described (`roles/x: user:a`). */
  readonly missing: readonly string[];
}

/**
 * `grant { role = … member = … condition { … } }`, repeated. A list, not a
 * set: Terraform compares the elements of a set of blocks pairwise, which for
 * a thousand grants costs seconds of its CPU at every step of a plan and an
 * apply (bench/bulk.ts; hashicorp/terraform#32940), and a list index by index.
 * Order means nothing to Google (each entry is granted once, duplicates are
 * refused), and a refresh never reorders or drops a block: what Google lacks
 * goes to `missing_grants` instead, so a plan shows that one entry, not every
 * block after it shifted.
 */
const GRANT_BLOCK: Block = {
  name: 'grant',
  description:
    'One principal granted one role, optionally under a condition, as one `_iam_member` resource grants it. Repeat the block for each grant.',
  nesting: 'LIST',
  attributes: [ROLE_ATTRIBUTE, MEMBER_ATTRIBUTE],
  blocks: [CONDITION_BLOCK],
};

/** What drift looks like for the bulk kind: the entries Google lacks, one line each, emptied by the apply that grants them again. */
const MISSING_GRANTS_ATTRIBUTE: Attribute = {
  name: 'missing_grants',
  description:
    'The `grant` blocks that Google\'s policy lacked at the last refresh, as `role: member` (`role (condition "title"): member`): removed outside Terraform, granted again by the next apply. Empty after every apply; a grant added outside Terraform is not listed.',
  type: ['list', 'string'],
  computed: true,
};

const MEMBERS: GrantKind<IamMembersModel> = {
  mode: 'members',

  // The model.
  decode: (fields, common) => ({
    ...common,
    grants: fields.objects('grant', (grant) => ({
      role: grant.string('role'),
      member: grant.string('member'),
      condition: decodeCondition(grant),
    })),
    missing: fields.optionalStrings('missing_grants') ?? [],
  }),
  encode: (model) => ({
    grant: model.grants.map((entry) => ({ role: entry.role, member: entry.member, condition: encodeCondition(entry.condition) })),
    missing_grants: [...model.missing],
  }),

  // The schema, and what validation checks of a configuration.
  describe: (noun) =>
    `Grants principals roles on a ${noun}'s IAM policy, each \`grant\` block as one \`_iam_member\` would: non-authoritative, so a grant made ` +
    "elsewhere is left alone, and removing a block revokes only that grant. Thousands of grants in one resource cost Terraform one resource's work.",
  attributes: [],
  computed: { attributes: [MISSING_GRANTS_ATTRIBUTE], planned: { missing_grants: [] } },
  blocks: [GRANT_BLOCK],
  partialGrant: (values) => ({
    mode: 'members',
    resource: UNRESOLVED_RESOURCE,
    grants: knownElements(values.grant, (entry) => ({
      role: partial(entry.role),
      member: partial(entry.member),
      condition: partialCondition(entry.condition),
    })),
  }),

  // Create grants each entry, Update revokes the entries that left and grants the rest, Delete revokes each.
  grantOf: (model): MembersGrant => ({
    mode: 'members',
    resource: model.resource,
    grants: model.grants.map((entry) => ({
      role: entry.role,
      member: entry.member,
      ...(entry.condition ? { condition: entry.condition } : {}),
    })),
  }),

  // Read: every entry stays; those Google lacks are listed, so the plan shows them (and only them) to be granted again.
  refresh: (state, policy) => {
    const held = heldEntries(policy);
    return { ...state, missing: state.grants.filter((entry) => !held.has(entryKey(entry))).map(describePolicyMember) };
  },

  // ImportState: "<resource>", adopting no entry: the next apply grants what the configuration lists and revokes nothing.
  importWords: { min: 0, exact: true, format: '"<resource>"' },
  imported: (_words, _policy, common) => ({ ...common, grants: [], missing: [] }),
};

/** The entry keys (grant.ts `entryKey`) of every member of every binding of `policy`. */
function heldEntries(policy: Policy): Set<string> {
  const held = new Set<string>();
  for (const binding of policy.bindings ?? []) {
    for (const member of binding.members ?? []) held.add(entryKey({ role: binding.role, member, condition: binding.condition }));
  }
  return held;
}

/** `googleiam_<type>_iam_members` of `descriptor`. */
export function iamMembersResource(descriptor: IamTypeDescriptor): ResourceType<GoogleIamContext> {
  return grantResourceType(descriptor, MEMBERS);
}
