import type { GetIamPolicyShape } from '../../api/iam-apis';
import type { IamPolicy } from '../../api/policy-result';
import { validateIamResource } from '../../api/resource-validation';
import type { IamPolicyRead } from '../../contract/read-query';
import { TYPED_RESOURCE_TYPE_ROWS, type TypedResourceTypeRow } from '../../resource-types/typed-resource-types';
import { validateLocatedResource, validatePolicyVersion, type PolicyVersion } from '../../iam/located-resource';
import { reportError, snakeCase } from '../errors';
import type { CtyObject } from '../framework/cty';
import type { DataSourceType } from '../framework/resource';
import type { Attribute } from '../framework/schema';
import type { GoogleIamContext } from '../provider-context';
import { knownValue, partial, stringOf } from '../framework/cty-values';
import { typedDescriptor } from '../resources/iam-type-descriptor';
import { GENERIC_RESOURCE_ATTRIBUTES, NAME_ATTRIBUTE } from '../resources/iam-schema';
import { readGoogle } from './google-read';

/** How one IAM policy data source names its resource: typed (id, location, project) or generic (service, version, name). */
interface PolicyLookup {
  readonly typeInfix: string;
  readonly noun: string;
  readonly attributes: readonly Attribute[];
  /** Checks what is known; throws an IamValidationError naming the field (camelCase). */
  validate(config: CtyObject): void;
  /** The read, every value known. */
  query(config: CtyObject, version: PolicyVersion): IamPolicyRead;
}

const VERSION_ATTRIBUTE: Attribute = {
  name: 'options_requested_policy_version',
  description: 'The policy version to ask for: 0, 1 or 3 (the default, so conditional bindings come back intact).',
  type: 'number',
  optional: true,
};

const condition = (name: string): Attribute => ({
  name: 'condition',
  description: `The binding's condition, null when unconditional${name}.`,
  computed: true,
  nested: {
    nesting: 'SINGLE',
    attributes: ['expression', 'title', 'description', 'location'].map((field) => ({
      name: field,
      description: `The condition's ${field}.`,
      type: 'string',
      computed: true,
    })),
  },
});

/** What every IAM policy data source returns, as the Direct form's IamPolicy holds it. */
const POLICY_ATTRIBUTES: readonly Attribute[] = [
  { name: 'id', description: "The resource's full name.", type: 'string', computed: true },
  { name: 'etag', description: "The policy's etag.", type: 'string', computed: true },
  {
    name: 'version',
    description: 'The policy version Google returned: 0, 1 or 3; null for a resource with no policy.',
    type: 'number',
    computed: true,
  },
  {
    name: 'bindings',
    description: 'Principals bound to roles; null when the policy has none.',
    computed: true,
    nested: {
      nesting: 'LIST',
      attributes: [
        { name: 'role', description: 'The role.', type: 'string', computed: true },
        { name: 'members', description: 'The principals.', type: ['list', 'string'], computed: true },
        condition(''),
      ],
    },
  },
  {
    name: 'audit_configs',
    description: 'Audit logging per service; null when the policy has none.',
    computed: true,
    nested: {
      nesting: 'LIST',
      attributes: [
        { name: 'service', description: 'The service, or `allServices`.', type: 'string', computed: true },
        {
          name: 'audit_log_configs',
          description: 'Logging per permission type.',
          computed: true,
          nested: {
            nesting: 'LIST',
            attributes: [
              { name: 'log_type', description: 'The permission type.', type: 'string', computed: true },
              {
                name: 'exempted_members',
                description: 'Principals not logged; null when none are.',
                type: ['list', 'string'],
                computed: true,
              },
            ],
          },
        },
      ],
    },
  },
  { name: 'policy_data', description: 'The policy as JSON text, as the API returned it.', type: 'string', computed: true },
];

function typedLookup(row: TypedResourceTypeRow): PolicyLookup {
  const idAttribute = snakeCase(row.idField);
  const { service, apiVersion } = row;
  const { resourceOf, typeInfix } = typedDescriptor(row);
  const method = resourceOf({ name: `projects/p/locations/l/${row.collection}/i` })?.getIamPolicyMethod;
  return {
    typeInfix,
    noun: row.noun,
    attributes: [
      { name: idAttribute, description: `The ${row.label}'s id.`, type: 'string', required: true },
      { name: 'location', description: `The ${row.label}'s location, e.g. \`${row.exampleLocation}\`.`, type: 'string', required: true },
      { name: 'project', description: "The project; by default the provider's.", type: 'string', optional: true, computed: true },
    ],
    validate: (config) =>
      validateLocatedResource(
        {
          project: partial<string>(config.project),
          location: partial<string>(config.location),
          id: partial<string>(config[idAttribute]),
          idField: row.idField,
        },
        knownValue,
      ),
    query: (config, version) => ({
      kind: 'iamPolicy',
      service,
      apiVersion,
      ...(method ? { getIamPolicyMethod: method } : {}),
      target: {
        collection: row.collection,
        location: config.location as string,
        id: config[idAttribute] as string,
        ...(stringOf(config.project) ? { project: config.project as string } : {}),
      },
      version,
    }),
  };
}

const GENERIC_LOOKUP: PolicyLookup = {
  typeInfix: '',
  noun: 'resource',
  attributes: [NAME_ATTRIBUTE("The resource's full name, as its API's getIamPolicy takes it."), ...GENERIC_RESOURCE_ATTRIBUTES],
  validate: (config) =>
    validateIamResource(
      {
        service: partial<string>(config.service),
        apiVersion: partial<string>(config.api_version),
        name: partial<string>(config.name),
        getIamPolicyMethod: partial<string>(config.get_iam_policy_method),
      },
      knownValue,
      '',
      'get_iam_policy_method',
      'read',
    ),
  query: (config, version) => ({
    kind: 'iamPolicy',
    service: config.service as string,
    apiVersion: config.api_version as string,
    ...(stringOf(config.get_iam_policy_method) ? { getIamPolicyMethod: config.get_iam_policy_method as GetIamPolicyShape } : {}),
    target: { name: config.name as string },
    version,
  }),
};

/** The IAM policy data source of one lookup: the policy at the requested version (3 by default). */
function iamPolicyDataSource(lookup: PolicyLookup): DataSourceType<GoogleIamContext> {
  const requestedVersion = (config: CtyObject) => (config.options_requested_policy_version ?? undefined) as unknown;
  return {
    typeName: `googleiam_${lookup.typeInfix}iam_policy`,
    schema: {
      version: 0,
      description: `Reads a ${lookup.noun}'s IAM policy (version 3 unless asked otherwise, so conditional bindings come back intact). An attribute Google did not send is null.`,
      attributes: [...lookup.attributes, VERSION_ATTRIBUTE, ...POLICY_ATTRIBUTES],
    },
    validate(config, diagnostics) {
      try {
        lookup.validate(config);
        validatePolicyVersion(requestedVersion(config), knownValue);
      } catch (error) {
        reportError(diagnostics, `Invalid ${lookup.noun}`, error);
      }
    },
    async read(context, config, diagnostics) {
      try {
        const version = requestedVersion(config);
        validatePolicyVersion(version);
        const { name, project, raw, value } = await readGoogle(lookup.query(config, version ?? 3), context.provider);
        return {
          ...config,
          ...('project' in config ? { project } : {}),
          id: name,
          ...policyState(value as IamPolicy),
          policy_data: JSON.stringify(raw),
        };
      } catch (error) {
        reportError(diagnostics, `Could not read the IAM policy of the ${lookup.noun}`, error);
        return null;
      }
    },
  };
}

/** The policy's attributes: what Google did not send is null, at every level. */
function policyState(policy: IamPolicy): CtyObject {
  return {
    etag: policy.etag ?? null,
    version: policy.version ?? null,
    bindings:
      policy.bindings?.map((b) => ({
        role: b.role ?? null,
        members: b.members ?? null,
        condition:
          b.condition === undefined
            ? null
            : {
                expression: b.condition.expression ?? null,
                title: b.condition.title ?? null,
                description: b.condition.description ?? null,
                location: b.condition.location ?? null,
              },
      })) ?? null,
    audit_configs:
      policy.auditConfigs?.map((c) => ({
        service: c.service ?? null,
        audit_log_configs:
          c.auditLogConfigs?.map((l) => ({ log_type: l.logType ?? null, exempted_members: l.exemptedMembers ?? null })) ?? null,
      })) ?? null,
  };
}

/** One IAM policy data source per typed resource type, and the generic one. */
export const IAM_POLICY_DATA_SOURCES: readonly DataSourceType<GoogleIamContext>[] = [
  ...TYPED_RESOURCE_TYPE_ROWS.map(typedLookup),
  GENERIC_LOOKUP,
].map(iamPolicyDataSource);
