import { GET_IAM_POLICY_SHAPES, GoogleIamApis } from '../../api/iam-apis';
import { validateIamResource, type IamResourceUse } from '../../api/resource-validation';
import type { Grant, IamResource } from '../../iam/grant';
import { parseResourceName } from '../../iam/resource-name';
import type { RoleTarget } from '../../iam/role-grantability';
import { publishedRowShape } from '../../resource-types/published-shape';
import { genericRoleTarget, typedRoleTarget } from '../../resource-types/role-target';
import { typedNameFormat } from '../../resource-types/typed-name-format';
import type { TypedResourceTypeRow } from '../../resource-types/typed-resource-types';
import { ProviderErrors } from '../errors';
import { snakeCase } from '../../iam/name-style';
import type { CtyObject } from '../framework/cty';
import type { Attribute } from '../framework/schema';
import { isKnown, knownValue, partial, stringOf } from '../framework/cty-values';
import type { ModelObject, ModelReader } from '../framework/model';
import { GENERIC_RESOURCE_ATTRIBUTES, NAME_ATTRIBUTE } from './iam-schema';

/**
 * What one family of IAM resource types (member, binding, policy and the
 * policy data source) needs to know about the resource whose policy it
 * manages, like terraform-provider-google's per-resource IAM descriptors
 * (tpgiamresource's `ResourceIamUpdater`): which attributes name it, how they
 * become an `IamResource`, how they are checked and imported. Typed ones come
 * from a row of lib/resource-types/typed-resource-types.ts, plus one generic.
 */
export interface IamTypeDescriptor {
  /** The type names' infix: `authorization_policy_` (`googleiam_authorization_policy_iam_member`), `` for the generic types. */
  readonly typeInfix: string;
  /** For docs: `network-security authorization policy`, or `resource`. */
  readonly noun: string;
  /** The attributes that name the resource: `name`, and for the generic types `service`, `api_version`, `get_iam_policy_method`. */
  readonly resourceAttributes: readonly Attribute[];
  /**
   * The attributes whose change makes another policy: a change replaces the resource. Not the generic types'
   * `api_version` (nor `get_iam_policy_method`): Google's policy of a resource is one whatever version reads it
   * (PolicyIdentity), so another version of the same name is an update in place, which writes nothing.
   */
  readonly replacedBy: readonly string[];
  /** The resource named by `values` (for a plan), or undefined while one of its attributes is unknown. */
  resourceOf(values: CtyObject): IamResource | undefined;
  /** The resource its attributes name, in a model's known values. */
  decodeResource(fields: ModelReader): IamResource;
  /** The resource attributes of `resource`, by their schema names: what `decodeResource` read. */
  encodeResource(resource: IamResource): ModelObject;
  /** Checks the known resource attributes for `use` by a `mode` type; throws an IamValidationError naming the attribute (camelCase). */
  validate(values: CtyObject, use: IamResourceUse, mode: Grant['mode']): void;
  /** The resource type its roles must be grantable on (lib/iam/role-check.ts); undefined while `values` do not tell it. */
  roleTarget(values: CtyObject): RoleTarget | undefined;
  /** The resource the `<resource>` part of an import ID into a `mode` type names; throws a ProviderError. */
  importedResource(resourceId: string, mode: Grant['mode']): IamResource;
}

/** The last word of each kind's type names, as the google provider spells them (`_iam_member`), snake_case. */
const TYPE_SUFFIX: Readonly<Record<Grant['mode'], string>> = {
  member: 'member',
  binding: 'binding',
  policy: 'policy',
  members: 'members',
  memberRoles: 'member_roles',
};

/** The type name of a family's resource of one kind: `googleiam_{typeInfix}iam_{member|binding|policy|members|member_roles}`. */
export function grantTypeName(typeInfix: string, mode: Grant['mode']): string {
  return `googleiam_${typeInfix}iam_${TYPE_SUFFIX[mode]}`;
}

/** The type names' infix of a typed row: `authorization_policy_`. */
function typedInfix(stem: string): string {
  return `${snakeCase(stem)}_`;
}

/** The descriptor of a typed resource type: `projects/{p}/locations/{l}/{collection}/{id}` of one API. */
export function typedDescriptor(row: TypedResourceTypeRow): IamTypeDescriptor {
  // A name of a lookalike row's collection points at that row's type of the same mode.
  const nameFormat = (mode: Grant['mode']) => typedNameFormat(row, (stem) => grantTypeName(typedInfix(stem), mode));
  const shape = publishedRowShape(row);
  const resourceNamed = (name: string): IamResource => ({
    service: row.service,
    apiVersion: row.apiVersion,
    name,
    ...(shape === 'GET' ? {} : { getIamPolicyMethod: shape }),
  });
  return {
    typeInfix: typedInfix(row.stem),
    noun: row.noun,
    resourceAttributes: [
      NAME_ATTRIBUTE(`The ${row.label}'s full name: \`projects/{project}/locations/{location}/${row.collection}/{id}\`.`),
    ],
    replacedBy: ['name'],
    resourceOf: (values) => {
      const name = stringOf(values.name);
      return name === undefined ? undefined : resourceNamed(name);
    },
    decodeResource: (fields) => resourceNamed(fields.string('name')),
    encodeResource: (resource) => ({ name: resource.name }),
    validate: (values, _use, mode) => {
      // The name must be one of this type's own collection: an address group's name on an authorization policy type is refused.
      const name = stringOf(values.name);
      if (name !== undefined) parseResourceName(name, nameFormat(mode), 'name');
    },
    roleTarget: () => typedRoleTarget(row),
    importedResource: (resourceId, mode) => {
      try {
        parseResourceName(resourceId, nameFormat(mode), 'name');
      } catch (error) {
        throw ProviderErrors.importId(resourceId, `the ${row.label}'s name first (${(error as Error).message})`);
      }
      return resourceNamed(resourceId);
    },
  };
}

/** The generic descriptor: any IAM-enabled collection of Google's published API, by service, version and name. */
export const GENERIC_DESCRIPTOR: IamTypeDescriptor = {
  typeInfix: '',
  noun: 'resource',
  resourceAttributes: [
    NAME_ATTRIBUTE("The resource's full name, as its API's getIamPolicy takes it, e.g. `projects/my-project/secrets/db-password`."),
    ...GENERIC_RESOURCE_ATTRIBUTES,
  ],
  replacedBy: ['name', 'service'],
  resourceOf: (values) => {
    const [service, apiVersion, name] = [stringOf(values.service), stringOf(values.api_version), stringOf(values.name)];
    if (service === undefined || apiVersion === undefined || name === undefined || !isKnown(values.get_iam_policy_method)) return undefined;
    return genericResource(service, apiVersion, name, stringOf(values.get_iam_policy_method));
  },
  decodeResource: (fields) =>
    genericResource(
      fields.string('service'),
      fields.string('api_version'),
      fields.string('name'),
      fields.optionalString('get_iam_policy_method'),
    ),
  encodeResource: (resource) => ({
    service: resource.service,
    api_version: resource.apiVersion,
    name: resource.name,
    get_iam_policy_method: resource.getIamPolicyMethod,
  }),
  validate: (values, use) => {
    validateIamResource(
      {
        service: partial(values.service),
        apiVersion: partial(values.api_version),
        name: partial(values.name),
        getIamPolicyMethod: partial(values.get_iam_policy_method),
      },
      knownValue,
      '',
      'get_iam_policy_method',
      use,
    );
  },
  roleTarget: (values) => {
    const [service, apiVersion, name] = [stringOf(values.service), stringOf(values.api_version), stringOf(values.name)];
    return service === undefined || apiVersion === undefined || name === undefined
      ? undefined
      : genericRoleTarget(service, apiVersion, name);
  },
  importedResource: (resourceId) => {
    const match = /^\/\/([a-z][a-z0-9]*)\.googleapis\.com\/(.+)$/.exec(resourceId);
    if (!match) throw ProviderErrors.importId(resourceId, "Google's full resource name first, `//{service}.googleapis.com/{name}`");
    const [, service, name] = match;
    const apiVersion = importVersion(service, name);
    if (apiVersion === undefined) {
      throw ProviderErrors.importId(
        resourceId,
        `a resource of an IAM-enabled collection of ${service} in Google's published API (${GoogleIamApis.SOURCE})`,
      );
    }
    return { service, apiVersion, name };
  },
};

/**
 * A generic resource. Its `get_iam_policy_method` is one of Google's shapes:
 * the validators refuse any other before a write, and a plan, which needs
 * only the name (for the id), is not failed over one.
 */
function genericResource(service: string, apiVersion: string, name: string, method: string | undefined): IamResource {
  const shape = GET_IAM_POLICY_SHAPES.find((s) => s === method);
  return { service, apiVersion, name, ...(shape === undefined ? {} : { getIamPolicyMethod: shape }) };
}

/** The API version an imported generic resource is managed through: v1 when it serves the name, else the newest stable, else the newest. */
export function importVersion(service: string, name: string): string | undefined {
  const versions = GoogleIamApis.versionsOf(service).filter((v) => GoogleIamApis.collection(service, v, name) !== undefined);
  if (versions.includes('v1')) return 'v1';
  const newestFirst = [...versions].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  return newestFirst.find((v) => /^v\d+$/.test(v)) ?? newestFirst[0];
}
