import type { IamPolicy, IamAuditConfig, IamAuditLogConfig, IamPolicyBinding, IamPolicyCondition } from './policy-result';
import { wireList, wireNumber, wireObject, wireOptional, wireString } from './wire';

/** google.iam.v1.Policy JSON → {@link IamPolicy}; unknown fields are ignored. */
export function iamPolicyFromWire(json: unknown): IamPolicy {
  const policy = wireObject(json);
  return {
    auditConfigs: wireList(policy.auditConfigs, auditConfigFromWire),
    bindings: wireList(policy.bindings, bindingFromWire),
    etag: wireString(policy.etag),
    version: wireNumber(policy.version),
  };
}

function bindingFromWire(json: unknown): IamPolicyBinding {
  const binding = wireObject(json);
  const condition = wireOptional(binding.condition, conditionFromWire);
  return {
    role: wireString(binding.role),
    members: wireList(binding.members, wireString),
    ...(condition ? { condition } : {}),
  };
}

function conditionFromWire(json: unknown): IamPolicyCondition {
  const expr = wireObject(json);
  return {
    expression: wireString(expr.expression),
    title: wireString(expr.title),
    description: wireString(expr.description),
    location: wireString(expr.location),
  };
}

function auditConfigFromWire(json: unknown): IamAuditConfig {
  const config = wireObject(json);
  return { service: wireString(config.service), auditLogConfigs: wireList(config.auditLogConfigs, auditLogConfigFromWire) };
}

function auditLogConfigFromWire(json: unknown): IamAuditLogConfig {
  const config = wireObject(json);
  return { logType: wireString(config.logType), exemptedMembers: wireList(config.exemptedMembers, wireString) };
}
