import type { IamResource } from '../iam/grant';
import type { ResourceNameFormat } from '../iam/resource-name';
import { isKnown as isKnownAtSynth } from '../synth/known-values';
import { GoogleIamApis, type GetIamPolicyShape } from '../api/iam-apis';
import type { IamResourceInput } from '../api/resource-validation';
import type { GrantTarget } from './iam-grant';
import { typedNameFormat, typedRow } from '../resource-types/typed-name-format';
import { publishedRowShape } from '../resource-types/published-shape';
import { typedRoleTarget } from '../resource-types/role-target';
import { TYPED_RESOURCE_TYPE_ROWS, type TypedResourceTypeRow } from '../resource-types/typed-resource-types';

/**
 * What the grant constructs need to know about one kind of IAM-enabled
 * resource: which API serves its policy, what its names look like, and how
 * its getIamPolicy is called, the last from Google's published API
 * (GoogleIamApis). The typed ones are rows of lib/resource-types/typed-resource-types.ts,
 * from which scripts/generate-resource-types.js writes their constructs and
 * lookups.
 */
export interface IamResourceType {
  readonly service: string;
  readonly apiVersion: string;
  readonly nameFormat: ResourceNameFormat;
  /** @default 'GET' */
  readonly getIamPolicyMethod?: GetIamPolicyShape;
}

/** The type of a typed row, `projects/{p}/locations/{l}/{collection}/{id}`, as Google publishes it (throws if it does not). */
function typedType(row: TypedResourceTypeRow): IamResourceType {
  const shape = publishedRowShape(row);
  return {
    service: row.service,
    apiVersion: row.apiVersion,
    nameFormat: { collection: row.collection, label: row.label },
    ...(shape === 'GET' ? {} : { getIamPolicyMethod: shape }),
  };
}

/** The typed resource types by class name stem (`AuthorizationPolicy`), each checked against Google's published API as the library loads. */
export const TYPED_RESOURCE_TYPES: Readonly<Record<string, IamResourceType>> = Object.fromEntries(
  TYPED_RESOURCE_TYPE_ROWS.map((row) => [row.stem, typedType(row)]),
);

/** The typed grant constructs of a row: `{stem}IamMember`, `{stem}IamBinding`, `{stem}IamPolicy`, `{stem}IamMembers`, `{stem}IamMemberRoles`. */
export type TypedGrantKind = 'IamMember' | 'IamBinding' | 'IamPolicy' | 'IamMembers' | 'IamMemberRoles';

/**
 * What the typed grant construct `{stem}{kind}` hands its base: the resource
 * `name` of the row's type, and the name's required form, in which a name of a
 * lookalike row points at that row's construct of the same kind.
 */
export function typedGrantTarget(stem: string, kind: TypedGrantKind, name: string): GrantTarget {
  return {
    typeName: `${stem}${kind}`,
    resource: resourceOfType(TYPED_RESOURCE_TYPES[stem], name),
    nameFormat: typedNameFormat(typedRow(stem), (lookalike) => `${lookalike}${kind}`),
    roleTarget: typedRoleTarget(typedRow(stem)),
  };
}

/** The resource a grant of this type names. */
export function resourceOfType(type: IamResourceType, name: string): IamResource {
  return {
    service: type.service,
    apiVersion: type.apiVersion,
    name,
    ...(type.getIamPolicyMethod ? { getIamPolicyMethod: type.getIamPolicyMethod } : {}),
  };
}

/**
 * The resource a generic grant or lookup names, with `getIamPolicyMethod`
 * settled: the explicit value, else the shape Google publishes for the
 * collection the name belongs to. It is left out only where it is `GET` and
 * Google publishes `GET` (what the provider then finds in the table itself), so
 * a grant's JSON and identity do not depend on whether that was spelled out;
 * an override that departs from the table travels with the grant. A name
 * Terraform knows only at apply is settled by the provider.
 */
export function genericResource(input: IamResourceInput): IamResource {
  const published = publishedShape(input);
  const method = input.getIamPolicyMethod ?? published;
  const implied = method === 'GET' && published === 'GET';
  return {
    service: input.service,
    apiVersion: input.apiVersion,
    name: input.name,
    ...(method === undefined || implied ? {} : { getIamPolicyMethod: method as GetIamPolicyShape }),
  };
}

function publishedShape({ service, apiVersion, name }: IamResourceInput): GetIamPolicyShape | undefined {
  if (![service, apiVersion, name].every((v) => typeof v === 'string' && isKnownAtSynth(v))) return undefined;
  return GoogleIamApis.collection(service, apiVersion, name)?.shape;
}
