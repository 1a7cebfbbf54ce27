import type { AuditConfig, Binding, Policy } from '../iam/types';
import { MessageReader, type JsonObject } from './message-reader';

/**
 * The state of the object a `moved` block brings in from another resource type (the google provider's, or
 * another of this provider's), as Terraform sends it to MoveResourceState: its JSON object, parsed field by field
 * where this provider reads it, as every message the provider reads.
 */
const reader = new MessageReader('moved state');

/** The source object's attributes (the JSON of its state). */
export function parseMovedState(json: string): JsonObject {
  return reader.object(reader.json(json), '');
}

/**
 * The google provider's `policy_data` (the policy as Google's JSON: `bindings`, `auditConfigs`, `etag`,
 * `version`), as a policy: the fields a policy of this provider holds, each checked.
 */
export function parseGooglePolicyData(json: string): Policy {
  const policy = reader.object(reader.json(json), 'policy_data');
  const bindings = policy.bindings === undefined ? [] : reader.list(policy.bindings, 'policy_data.bindings').map(binding);
  const auditConfigs =
    policy.auditConfigs === undefined ? [] : reader.list(policy.auditConfigs, 'policy_data.auditConfigs').map(auditConfig);
  return { bindings, ...(auditConfigs.length > 0 ? { auditConfigs } : {}) };
}

function binding(value: unknown, i: number): Binding {
  const field = `policy_data.bindings[${i}]`;
  const raw = reader.object(value, field);
  const members = reader.texts(raw.members ?? [], `${field}.members`);
  if (raw.condition === undefined) return { role: reader.text(raw.role, `${field}.role`), members };
  const condition = reader.object(raw.condition, `${field}.condition`);
  const description = reader.optionalString(condition.description, `${field}.condition.description`);
  return {
    role: reader.text(raw.role, `${field}.role`),
    members,
    condition: {
      expression: reader.text(condition.expression, `${field}.condition.expression`),
      title: reader.string(condition.title ?? '', `${field}.condition.title`),
      ...(description ? { description } : {}),
    },
  };
}

function auditConfig(value: unknown, i: number): AuditConfig {
  const field = `policy_data.auditConfigs[${i}]`;
  const raw = reader.object(value, field);
  const logs = raw.auditLogConfigs === undefined ? [] : reader.list(raw.auditLogConfigs, `${field}.auditLogConfigs`);
  return {
    service: reader.text(raw.service, `${field}.service`),
    auditLogConfigs: logs.map((log, j) => {
      const logField = `${field}.auditLogConfigs[${j}]`;
      const entry = reader.object(log, logField);
      const exempted = entry.exemptedMembers === undefined ? undefined : reader.texts(entry.exemptedMembers, `${logField}.exemptedMembers`);
      return { logType: reader.text(entry.logType, `${logField}.logType`), ...(exempted ? { exemptedMembers: exempted } : {}) };
    }),
  };
}
