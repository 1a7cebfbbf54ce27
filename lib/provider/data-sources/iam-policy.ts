import type { GetIamPolicyShape } from '../../api/iam-apis';
import type { IamPolicy } from '../../api/policy-result';
import { validateGetIamPolicyMethod, validateIamResource } from '../../api/resource-validation';
import type { IamPolicyRead } from '../../contract/read-query';
import { TYPED_RESOURCE_TYPE_ROWS, type TypedResourceTypeRow } from '../../resource-types/typed-resource-types';
import { validateLocatedResource, validatePolicyVersion, type PolicyVersion } from '../../iam/located-resource';
import { reportError } from '../errors';
import { snakeCase } from '../../iam/name-style';
import type { CtyObject } from '../framework/cty';
import type { DataSourceType } from '../framework/resource';
import type { Attribute } from '../framework/schema';
import type { GoogleIamContext } from '../provider-context';
import { knownValue, partial } from '../framework/cty-values';
import { encodeModel, ModelReader, type ModelObject } from '../framework/model';
import { typedDescriptor } from '../resources/iam-type-descriptor';
import { GENERIC_RESOURCE_ATTRIBUTES, NAME_ATTRIBUTE } from '../resources/iam-schema';
import { readGoogle } from './google-read';

/**
 * How one IAM policy data source names its resource: typed (id, location,
 * project) or generic (service, version, name), with the typed model of
 * those attributes.
 */
interface PolicyLookup<Model> {
  readonly typeInfix: string;
  readonly noun: string;
  readonly attributes: readonly Attribute[];
  /** Checks what is known; throws an IamValidationError naming the field (camelCase). */
  validate(config: CtyObject): void;
  /** The model of the lookup's attributes, every value known. */
  decode(fields: ModelReader): Model;
  /** The lookup's attributes of the state: as configured, and the project the read used where the lookup has one. */
  encode(model: Model, project: string): ModelObject;
  /** The read. */
  query(model: Model, version: PolicyVersion): IamPolicyRead;
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

/** A typed resource type's resource: its id, location and project (the provider's when unset). */
interface LocatedModel {
  readonly id: string;
  readonly location: string;
  readonly project?: string;
}

function typedLookup(row: TypedResourceTypeRow): PolicyLookup<LocatedModel> {
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
    decode: (fields) => {
      const project = fields.optionalString('project');
      return { id: fields.string(idAttribute), location: fields.string('location'), ...(project ? { project } : {}) };
    },
    encode: (model, project) => ({ [idAttribute]: model.id, location: model.location, project }),
    query: (model, version) => ({
      kind: 'iamPolicy',
      service,
      apiVersion,
      ...(method ? { getIamPolicyMethod: method } : {}),
      target: { collection: row.collection, ...model },
      version,
    }),
  };
}

/** Any resource: by service, API version and full name, and how its getIamPolicy is called when given. */
interface NamedModel {
  readonly service: string;
  readonly apiVersion: string;
  readonly name: string;
  readonly getIamPolicyMethod?: GetIamPolicyShape;
}

const GENERIC_LOOKUP: PolicyLookup<NamedModel> = {
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
  decode: (fields) => {
    const named = { service: fields.string('service'), apiVersion: fields.string('api_version'), name: fields.string('name') };
    const method = fields.optionalString('get_iam_policy_method');
    if (!method) return named;
    // Validation has refused any other value before the read; checked again so that the type says so.
    validateGetIamPolicyMethod(method, 'get_iam_policy_method');
    return { ...named, getIamPolicyMethod: method };
  },
  encode: (model) => ({
    service: model.service,
    api_version: model.apiVersion,
    name: model.name,
    get_iam_policy_method: model.getIamPolicyMethod,
  }),
  query: (model, version) => ({
    kind: 'iamPolicy',
    service: model.service,
    apiVersion: model.apiVersion,
    ...(model.getIamPolicyMethod ? { getIamPolicyMethod: model.getIamPolicyMethod } : {}),
    target: { name: model.name },
    version,
  }),
};

/** The IAM policy data source of one lookup: the policy at the requested version (3 by default). */
function iamPolicyDataSource<Model>(lookup: PolicyLookup<Model>): DataSourceType<GoogleIamContext> {
  const requestedVersion = (config: CtyObject) => (config.options_requested_policy_version ?? undefined) as unknown;
  const schema = {
    version: 0,
    description: `Reads a ${lookup.noun}'s IAM policy (version 3 unless asked otherwise, so conditional bindings come back intact). An attribute Google did not send is null.`,
    attributes: [...lookup.attributes, VERSION_ATTRIBUTE, ...POLICY_ATTRIBUTES],
  };
  return {
    typeName: `googleiam_${lookup.typeInfix}iam_policy`,
    schema,
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
        const fields = ModelReader.decode(schema.attributes, config);
        const resource = lookup.decode(fields);
        const version = fields.optionalNumber(VERSION_ATTRIBUTE.name);
        validatePolicyVersion(version);
        const { name, project, raw, value } = await readGoogle(lookup.query(resource, version ?? 3), context.provider);
        return encodeModel(schema.attributes, {
          ...lookup.encode(resource, project),
          [VERSION_ATTRIBUTE.name]: version,
          id: name,
          ...policyState(value as IamPolicy),
          policy_data: JSON.stringify(raw),
        });
      } catch (error) {
        reportError(diagnostics, `Could not read the IAM policy of the ${lookup.noun}`, error);
        return null;
      }
    },
  };
}

/** The policy's attributes: what Google did not send is null, at every level. */
function policyState(policy: IamPolicy): ModelObject {
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
  ...TYPED_RESOURCE_TYPE_ROWS.map((row) => iamPolicyDataSource(typedLookup(row))),
  iamPolicyDataSource(GENERIC_LOOKUP),
];
