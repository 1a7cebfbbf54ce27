/**
 * TEMPORARY FIXTURE (helper C): the provider's schemas exactly as the common
 * brief gives them, so that scripts/generate-provider-bindings.js has
 * something to generate from until helper B's lib/provider/schemas.ts (built
 * from the resource and data source files themselves) replaces this file.
 *
 * The contract with the generator: `providerSchemas()` lists the provider
 * block (kind `provider`, typeName `googleiam`), then every resource and data
 * source type, each with its framework Schema.
 */
import type { Attribute, Schema } from './framework/schema';
import { TYPED_RESOURCE_TYPE_ROWS } from '../grant/typed-resource-types';

/** One schema the provider serves. */
export interface ProviderSchemaEntry {
  readonly typeName: string;
  readonly kind: 'provider' | 'resource' | 'data-source';
  readonly schema: Schema;
}

const PROVIDER_NAME = 'googleiam';
const snake = (camel: string) => camel.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

const text = (name: string, description: string, flags: Partial<Attribute>): Attribute => ({ name, description, type: 'string', ...flags });
const computedText = (name: string, description: string) => text(name, description, { computed: true });
const stringSet = (name: string, description: string, flags: Partial<Attribute>): Attribute => ({
  name,
  description,
  type: ['set', 'string'],
  ...flags,
});

const condition = (flags: Partial<Attribute>): Attribute => ({
  name: 'condition',
  description: 'An IAM condition: the binding applies only while the CEL expression holds.',
  nested: {
    nesting: 'SINGLE',
    attributes: [
      text('expression', 'Textual expression in Common Expression Language syntax.', { required: true }),
      text('title', 'Short string describing the purpose of the expression.', { required: true }),
      text('description', 'Longer text describing the expression.', { optional: true }),
    ],
  },
  ...flags,
});

const computedIds = [
  computedText('id', 'Terraform-style id of the grant.'),
  computedText('etag', 'Etag of the IAM policy after the last write or read.'),
  computedText('project', 'The project of the resource, taken from its name.'),
];

const genericFields = [
  text('service', 'The API: its host name without `.googleapis.com`, e.g. `secretmanager`.', { required: true }),
  text('api_version', 'The API version, e.g. `v1`.', { required: true }),
];
const getIamPolicyMethod = text('get_iam_policy_method', 'How getIamPolicy is called: `GET`, `POST` or `POST_QUERY`.', {
  optional: true,
});

function memberSchema(generic: boolean): Schema {
  return {
    version: 0,
    description: 'One principal granted one role (and condition), leaving every other grant on the policy alone.',
    attributes: [
      ...(generic ? genericFields : []),
      text('name', 'The resource whose IAM policy holds the grant.', { required: true }),
      ...(generic ? [getIamPolicyMethod] : []),
      text('role', 'The role that is granted.', { required: true }),
      text('member', 'The principal that is granted the role.', { required: true }),
      condition({ optional: true }),
      ...computedIds,
    ],
  };
}

function bindingSchema(generic: boolean): Schema {
  return {
    version: 0,
    description: 'The whole member list of one role (and condition) on a resource.',
    attributes: [
      ...(generic ? genericFields : []),
      text('name', 'The resource whose IAM policy holds the binding.', { required: true }),
      ...(generic ? [getIamPolicyMethod] : []),
      text('role', 'The role that is granted.', { required: true }),
      stringSet('members', 'The principals granted the role.', { required: true }),
      condition({ optional: true }),
      ...computedIds,
    ],
  };
}

function policySchema(generic: boolean): Schema {
  return {
    version: 0,
    description: "Every binding of a resource's IAM policy, and its audit configs when given.",
    attributes: [
      ...(generic ? genericFields : []),
      text('name', 'The resource whose IAM policy this owns.', { required: true }),
      ...(generic ? [getIamPolicyMethod] : []),
      {
        name: 'bindings',
        description: 'Every binding of the policy.',
        required: true,
        nested: {
          nesting: 'LIST',
          attributes: [
            text('role', 'The role.', { required: true }),
            stringSet('members', 'The principals granted the role.', { required: true }),
            condition({ optional: true }),
          ],
        },
      },
      {
        name: 'audit_configs',
        description: "The policy's audit configs, replaced when given.",
        optional: true,
        nested: {
          nesting: 'LIST',
          attributes: [
            text('service', 'A service, or `allServices`.', { required: true }),
            {
              name: 'audit_log_configs',
              description: 'Which types of permission are logged.',
              required: true,
              nested: {
                nesting: 'LIST',
                attributes: [
                  text('log_type', '`ADMIN_READ`, `DATA_WRITE` or `DATA_READ`.', { required: true }),
                  stringSet('exempted_members', 'Principals whose use is not logged.', { optional: true }),
                ],
              },
            },
          ],
        },
      },
      ...computedIds,
    ],
  };
}

const policyOutputs: Attribute[] = [
  computedText('id', 'The resource whose policy was read.'),
  computedText('etag', 'Etag of the policy.'),
  { name: 'version', description: 'Policy version.', type: 'number', computed: true },
  {
    name: 'bindings',
    description: 'The bindings.',
    computed: true,
    nested: {
      nesting: 'LIST',
      attributes: [
        computedText('role', 'The role.'),
        { name: 'members', description: 'The principals.', type: ['list', 'string'], computed: true },
        {
          name: 'condition',
          description: 'The condition.',
          computed: true,
          nested: {
            nesting: 'SINGLE',
            attributes: ['expression', 'title', 'description', 'location'].map((n) => computedText(n, `The condition's ${n}.`)),
          },
        },
      ],
    },
  },
  {
    name: 'audit_configs',
    description: 'The audit configs.',
    computed: true,
    nested: {
      nesting: 'LIST',
      attributes: [
        computedText('service', 'The service.'),
        {
          name: 'audit_log_configs',
          description: 'The log configs.',
          computed: true,
          nested: {
            nesting: 'LIST',
            attributes: [
              computedText('log_type', 'The log type.'),
              { name: 'exempted_members', description: 'Exempted principals.', type: ['list', 'string'], computed: true },
            ],
          },
        },
      ],
    },
  },
  computedText('policy_data', 'The policy as JSON text, as the API returned it.'),
];
const requestedVersion: Attribute = {
  name: 'options_requested_policy_version',
  description: 'Policy version to request: 0, 1 or 3.',
  type: 'number',
  optional: true,
};

function typedPolicyDataSchema(idField: string): Schema {
  return {
    version: 0,
    description: "Reads a resource's IAM policy.",
    attributes: [
      text(snake(idField), "The resource's id.", { required: true }),
      text('location', "The resource's location.", { required: true }),
      text('project', "The resource's project.", { optional: true, computed: true }),
      requestedVersion,
      ...policyOutputs,
    ],
  };
}

const genericPolicyDataSchema: Schema = {
  version: 0,
  description: "Reads any resource's IAM policy.",
  attributes: [
    ...genericFields,
    text('name', "The resource's name.", { required: true }),
    getIamPolicyMethod,
    requestedVersion,
    ...policyOutputs,
  ],
};

const importJobDataSchema: Schema = {
  version: 0,
  description: 'Reads a Migration Center import job.',
  attributes: [
    text('import_job_id', "The import job's id.", { required: true }),
    text('location', "The import job's location.", { required: true }),
    text('project', "The import job's project.", { optional: true, computed: true }),
    text('view', 'Which parts to read.', { optional: true }),
    ...['id', 'name', 'display_name', 'asset_source', 'create_time', 'update_time', 'complete_time', 'state'].map((n) =>
      computedText(n, `The import job's ${n}.`),
    ),
    { name: 'labels', description: 'Labels.', type: ['map', 'string'], computed: true },
    ...['execution_report_json', 'validation_report_json', 'object_storage_payload_json', 'inline_payload_json'].map((n) =>
      computedText(n, `JSON text of ${n}.`),
    ),
  ],
};

const providerSchema: Schema = {
  version: 0,
  description: 'Google Cloud IAM grants the google provider lacks.',
  attributes: [
    text('project', 'Default project.', { optional: true }),
    text('credentials', 'A service account key file path or its JSON.', { optional: true, sensitive: true }),
    text('access_token', 'An OAuth 2 access token.', { optional: true, sensitive: true }),
    text('impersonate_service_account', 'A service account to impersonate.', { optional: true }),
  ],
};

/** Every schema the provider serves: the provider block, then the resources and data sources. */
export function providerSchemas(): ProviderSchemaEntry[] {
  const family = (prefix: string, generic: boolean): ProviderSchemaEntry[] => [
    { typeName: `${prefix}_iam_member`, kind: 'resource', schema: memberSchema(generic) },
    { typeName: `${prefix}_iam_binding`, kind: 'resource', schema: bindingSchema(generic) },
    { typeName: `${prefix}_iam_policy`, kind: 'resource', schema: policySchema(generic) },
  ];
  return [
    { typeName: PROVIDER_NAME, kind: 'provider', schema: providerSchema },
    ...family(PROVIDER_NAME, true),
    { typeName: `${PROVIDER_NAME}_iam_policy`, kind: 'data-source', schema: genericPolicyDataSchema },
    ...TYPED_RESOURCE_TYPE_ROWS.flatMap((row) => {
      const prefix = `${PROVIDER_NAME}_${snake(row.stem)}`;
      return [
        ...family(prefix, false),
        { typeName: `${prefix}_iam_policy`, kind: 'data-source' as const, schema: typedPolicyDataSchema(row.idField) },
      ];
    }),
    { typeName: `${PROVIDER_NAME}_import_job`, kind: 'data-source', schema: importJobDataSchema },
  ];
}
