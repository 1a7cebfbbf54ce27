import type { IamPolicy, IamAuditConfig, IamAuditLogConfig, IamPolicyBinding, IamPolicyCondition } from './policy-result';
import { wireList, wireMessage, wireNumber, wireObject, wireString, wireStringList, type WireObject } from './wire';

/**
 * google.iam.v1.Policy JSON → `IamPolicy`: every field of the schema is
 * a key of the result, undefined where Google did not send it (at every
 * level); unknown fields are ignored. `json` has passed policyShapeProblem
 * (lib/api/policy-shape.ts), which refuses an answer without the fields read
 * here `as string`.
 */
export function iamPolicyFromWire(json: unknown): IamPolicy {
  const policy = wireObject(json);
  return {
    auditConfigs: wireList(policy.auditConfigs, auditConfigFromWire),
    bindings: wireList(policy.bindings, bindingFromWire),
    etag: wireString(policy.etag) as string,
    version: wireNumber(policy.version),
  };
}

function bindingFromWire(json: unknown): IamPolicyBinding {
  const binding = wireObject(json);
  return {
    role: wireString(binding.role) as string,
    members: wireStringList(binding.members),
    condition: wireMessage(binding.condition, conditionFromWire),
  };
}

function conditionFromWire(expr: WireObject): IamPolicyCondition {
  return {
    expression: wireString(expr.expression) as string,
    title: wireString(expr.title),
    description: wireString(expr.description),
    location: wireString(expr.location),
  };
}

function auditConfigFromWire(json: unknown): IamAuditConfig {
  const config = wireObject(json);
  return { service: wireString(config.service) as string, auditLogConfigs: wireList(config.auditLogConfigs, auditLogConfigFromWire) };
}

function auditLogConfigFromWire(json: unknown): IamAuditLogConfig {
  const config = wireObject(json);
  return { logType: wireString(config.logType), exemptedMembers: wireStringList(config.exemptedMembers) };
}
