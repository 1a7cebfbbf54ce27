import { GET_IAM_POLICY_SHAPES, type GetIamPolicyShape } from '../api/iam-apis';
import type { Grant, GrantBinding, IamResource } from '../iam/grant';
import type { AuditConfig, ConditionInput } from '../iam/types';
import { RunnerErrors } from './errors';

/**
 * Reads the grant the runner is to carry out: the JSON that synth wrote into
 * the grants resource (its `triggers_replace`), handed over in
 * `CDKTF_GOOGLE_IAM_GRANT`. The shape is checked here; principals, roles and
 * conditions are checked by the policy edit itself (lib/iam), whose errors
 * the runner reports as INVALID_ARGUMENT without writing anything.
 */
export function parseGrant(json: string | undefined): Grant {
  if (!json) throw RunnerErrors.noGrant();
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw RunnerErrors.grantNotJson((e as Error).message);
  }
  const malformed = (why: string): never => {
    throw RunnerErrors.malformedGrant(why);
  };
  const grant = objectOf(value, 'the grant', malformed);
  const resource = resourceOf(grant.resource, malformed);
  switch (grant.mode) {
    case 'member':
      return {
        mode: 'member',
        resource,
        role: textOf(grant.role, 'role', malformed),
        member: textOf(grant.member, 'member', malformed),
        ...optionalCondition(grant.condition, 'condition', malformed),
      };
    case 'binding':
      return {
        mode: 'binding',
        resource,
        role: textOf(grant.role, 'role', malformed),
        members: textsOf(grant.members, 'members', malformed),
        ...optionalCondition(grant.condition, 'condition', malformed),
      };
    case 'policy':
      return {
        mode: 'policy',
        resource,
        bindings: listOf(grant.bindings, 'bindings', malformed).map((b, i) => bindingOf(b, `bindings[${i}]`, malformed)),
        ...(grant.auditConfigs === undefined
          ? {}
          : {
              auditConfigs: listOf(grant.auditConfigs, 'auditConfigs', malformed).map((c, i) =>
                auditConfigOf(c, `auditConfigs[${i}]`, malformed),
              ),
            }),
      };
    default:
      return malformed(`mode must be member, binding or policy (got ${JSON.stringify(grant.mode)})`);
  }
}

type Malformed = (why: string) => never;
type Json = Record<string, unknown>;

const SERVICE = /^[a-z][a-z0-9]*$/;
const API_VERSION = /^v\d+[a-z0-9]*$/;
/**
 * A resource name is a path below the API version: no query, fragment,
 * backslash, empty or dot segments, and no colon in its last segment (the
 * runner adds the `:getIamPolicy` verb there; a colon elsewhere is legal, as
 * in a domain-scoped project `projects/example.com:my-project/...`).
 */
const RESOURCE_NAME = /^(?!\/)(?!.*\/\/)(?!.*\/$)(?!.*(^|\/)\.\.?(\/|$))[^?#\\\s]+$/;
const LAST_SEGMENT_COLON = /:[^/]*$/;

function resourceOf(value: unknown, malformed: Malformed): IamResource {
  const resource = objectOf(value, 'resource', malformed);
  const service = textOf(resource.service, 'resource.service', malformed);
  const apiVersion = textOf(resource.apiVersion, 'resource.apiVersion', malformed);
  const name = textOf(resource.name, 'resource.name', malformed);
  if (!SERVICE.test(service)) malformed(`resource.service must be an API name such as networksecurity (got ${JSON.stringify(service)})`);
  if (!API_VERSION.test(apiVersion)) malformed(`resource.apiVersion must look like v1 or v1beta1 (got ${JSON.stringify(apiVersion)})`);
  if (!RESOURCE_NAME.test(name) || LAST_SEGMENT_COLON.test(name))
    malformed(`resource.name must be a resource path such as projects/p/... (got ${JSON.stringify(name)})`);
  const method = resource.getIamPolicyMethod;
  if (method !== undefined && !GET_IAM_POLICY_SHAPES.includes(method as GetIamPolicyShape))
    malformed(`resource.getIamPolicyMethod must be ${GET_IAM_POLICY_SHAPES.join(', ')} (got ${JSON.stringify(method)})`);
  return { service, apiVersion, name, ...(method === undefined ? {} : { getIamPolicyMethod: method as GetIamPolicyShape }) };
}

function bindingOf(value: unknown, field: string, malformed: Malformed): GrantBinding {
  const binding = objectOf(value, field, malformed);
  return {
    role: textOf(binding.role, `${field}.role`, malformed),
    members: textsOf(binding.members, `${field}.members`, malformed),
    ...optionalCondition(binding.condition, `${field}.condition`, malformed),
  };
}

function auditConfigOf(value: unknown, field: string, malformed: Malformed): AuditConfig {
  const config = objectOf(value, field, malformed);
  return {
    service: textOf(config.service, `${field}.service`, malformed),
    auditLogConfigs: listOf(config.auditLogConfigs ?? [], `${field}.auditLogConfigs`, malformed).map((c, i) => {
      const logConfig = objectOf(c, `${field}.auditLogConfigs[${i}]`, malformed);
      return {
        logType: textOf(logConfig.logType, `${field}.auditLogConfigs[${i}].logType`, malformed),
        exemptedMembers: textsOf(logConfig.exemptedMembers ?? [], `${field}.auditLogConfigs[${i}].exemptedMembers`, malformed, true),
      };
    }),
  };
}

function optionalCondition(value: unknown, field: string, malformed: Malformed): { condition?: ConditionInput } {
  if (value === undefined || value === null) return {};
  const condition = objectOf(value, field, malformed);
  const description = condition.description;
  if (description !== undefined && typeof description !== 'string') malformed(`${field}.description must be a string`);
  return {
    condition: {
      expression: textOf(condition.expression, `${field}.expression`, malformed),
      title: textOf(condition.title, `${field}.title`, malformed),
      ...(description === undefined ? {} : { description: description as string }),
    },
  };
}

function objectOf(value: unknown, field: string, malformed: Malformed): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) malformed(`${field} must be an object`);
  return value as Json;
}

function listOf(value: unknown, field: string, malformed: Malformed): unknown[] {
  if (!Array.isArray(value)) malformed(`${field} must be a list`);
  return value as unknown[];
}

function textOf(value: unknown, field: string, malformed: Malformed): string {
  if (typeof value !== 'string' || value.length === 0) malformed(`${field} must be a non-empty string`);
  return value as string;
}

function textsOf(value: unknown, field: string, malformed: Malformed, mayBeEmpty = false): string[] {
  const list = listOf(value, field, malformed);
  if (!mayBeEmpty && list.length === 0) malformed(`${field} must list at least one principal`);
  return list.map((item, i) => textOf(item, `${field}[${i}]`, malformed));
}
