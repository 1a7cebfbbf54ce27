import { blockAttribute, type Attribute, type Block } from '../framework/schema';

/**
 * The attributes the IAM resource types share, named as the Terraform google
 * provider names them (`google_*_iam_member`, `_binding`, `_policy`). A member's
 * or binding's condition is a block, `condition { ... }`, as there; a policy's
 * bindings are a protocol 6 nested attribute (the google provider takes
 * `policy_data` JSON there, so no HCL carries over), their conditions with them.
 */

const CONDITION_FIELDS: readonly Attribute[] = [
  {
    name: 'expression',
    description: 'The CEL expression, e.g. `request.time < timestamp("2030-01-01T00:00:00Z")`.',
    type: 'string',
    required: true,
  },
  {
    name: 'title',
    description: 'A short name for what the condition does; with the role it identifies the binding.',
    type: 'string',
    required: true,
  },
  { name: 'description', description: 'What the condition is for.', type: 'string', optional: true },
];

/**
 * An IAM condition (`google.type.Expr`): expression and title required,
 * description optional. At most one (SINGLE: its value is the object, null
 * when absent, the same value the nested attribute it replaced had, so state
 * written before reads unchanged).
 */
export const CONDITION_BLOCK: Block = {
  name: 'condition',
  description: 'An IAM condition: the grant holds only while it is true. Role and condition together identify the binding.',
  nesting: 'SINGLE',
  attributes: CONDITION_FIELDS,
};

/** A policy binding's condition: the same object, as a nested attribute (`condition = { ... }`). */
const CONDITION_ATTRIBUTE: Attribute = blockAttribute(CONDITION_BLOCK);

export const ROLE_ATTRIBUTE: Attribute = {
  name: 'role',
  description: 'The role, e.g. `roles/networksecurity.viewer` or `projects/{project}/roles/{id}`.',
  type: 'string',
  required: true,
};

export const MEMBER_ATTRIBUTE: Attribute = {
  name: 'member',
  description: 'The principal, e.g. `user:alice@example.com`, `serviceAccount:...`, `group:...`, `principal://...`.',
  type: 'string',
  required: true,
};

export const MEMBERS_ATTRIBUTE: Attribute = {
  name: 'members',
  description: 'Every principal of the binding (authoritative for this role and condition).',
  type: ['set', 'string'],
  required: true,
};

/** Every binding of a policy (authoritative for the policy's bindings). */
export const BINDINGS_ATTRIBUTE: Attribute = {
  name: 'bindings',
  description: "Every binding of the policy: bindings not listed are removed. Google's actual bindings after a refresh.",
  required: true,
  nested: { nesting: 'LIST', attributes: [ROLE_ATTRIBUTE, MEMBERS_ATTRIBUTE, CONDITION_ATTRIBUTE] },
};

/** The policy's audit configs: replaced only when given. */
export const AUDIT_CONFIGS_ATTRIBUTE: Attribute = {
  name: 'audit_configs',
  description: "Audit logging per service; when given, the policy's audit configs become exactly these.",
  optional: true,
  nested: {
    nesting: 'LIST',
    attributes: [
      {
        name: 'service',
        description: 'A service, e.g. `networksecurity.googleapis.com`, or `allServices`.',
        type: 'string',
        required: true,
      },
      {
        name: 'audit_log_configs',
        description: 'Which permission types are logged.',
        required: true,
        nested: {
          nesting: 'LIST',
          attributes: [
            { name: 'log_type', description: '`ADMIN_READ`, `DATA_WRITE` or `DATA_READ`.', type: 'string', required: true },
            { name: 'exempted_members', description: 'Principals not logged for this type.', type: ['set', 'string'], optional: true },
          ],
        },
      },
    ],
  },
};

/**
 * What every grant resource type has besides its kind's attributes (grant-resource.ts puts it around each kind):
 * the IAM security findings (lib/iam/check-rules.ts) this grant accepts, each with the reason.
 */
export const CHECK_SUPPRESSIONS_ATTRIBUTE: Attribute = {
  name: 'check_suppressions',
  description:
    'IAM security findings this grant accepts: rule ID → reason (at least 10 characters), e.g. `{ "GoogleIam-Public" = "the landing page is public by design" }`. A suppressed finding is not reported. The rules: docs/checks.md.',
  type: ['map', 'string'],
  optional: true,
};

/**
 * What the provider sets: the google provider's id format, and the policy's etag after the last change or read.
 * Nothing more: Terraform rewrites the whole state after every resource it changes, so each byte a grant keeps
 * costs an apply of a thousand grants about 18 ms (bench/results: state bytes per grant).
 */
export const COMPUTED_ATTRIBUTES: readonly Attribute[] = [
  {
    name: 'id',
    description:
      'As the google provider builds it: `{name}/{role}/{member}` (member), `{name}/{role}` (binding), `{name}` (policy), then `/{title}/{description}/{expression}` when conditional; `{name}` (members), `{name}/{member}` (member roles).',
    type: 'string',
    computed: true,
  },
  { name: 'etag', description: "The policy's etag after the last change or refresh.", type: 'string', computed: true },
];

/** A generic resource's attributes besides `name`: which API serves the policy, and how getIamPolicy is called. */
export const GENERIC_RESOURCE_ATTRIBUTES: readonly Attribute[] = [
  {
    name: 'service',
    description: 'The API, its host name without `.googleapis.com`, e.g. `secretmanager`.',
    type: 'string',
    required: true,
  },
  { name: 'api_version', description: 'The API version, e.g. `v1`.', type: 'string', required: true },
  {
    name: 'get_iam_policy_method',
    description: "How getIamPolicy is called: `GET`, `POST` or `POST_QUERY`; by default what Google publishes for the name's collection.",
    type: 'string',
    optional: true,
  },
];

export const NAME_ATTRIBUTE = (description: string): Attribute => ({ name: 'name', description, type: 'string', required: true });
