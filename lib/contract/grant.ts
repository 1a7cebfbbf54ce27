import {
  validateApiVersion,
  validateGetIamPolicyMethod,
  validateIamResource,
  validateResourceName,
  validateServiceName,
} from '../api/resource-validation';
import type { Grant, GrantBinding, IamResource } from '../iam/grant';
import { validateGrantValues } from '../iam/grant-validation';
import type { AuditConfig, ConditionInput } from '../iam/types';
import { MessageReader } from './message-reader';
import { TWINS_SEPARATOR } from './runner-env';

/**
 * The grant message: what synth writes into the grants resource for each
 * grant (its `triggers_replace`, which the provisioners hand the runner in
 * `CDKTF_GOOGLE_IAM_GRANT`), and the label beside it (its `input`, in
 * `CDKTF_GOOGLE_IAM_LABEL`). A grant whose values synth knows is written as
 * this JSON; one holding Terraform values as the `jsonencode` of the same
 * fields, so Terraform writes the JSON (lib/synth/terraform-expression.ts).
 */
export function serializeGrant(grant: Grant): string {
  return JSON.stringify(grant);
}

/**
 * The grant the runner is to carry out, every part checked: the shape, the
 * resource (against Google's published API, as a generic construct checks
 * it) and every role, principal, condition and audit config, by the
 * validators the constructs run at synth.
 * For a grant holding Terraform values this is the only check of those
 * values, and its errors are the constructs' (a ContractError naming the field).
 */
export function parseGrant(json: string): Grant {
  const grant = parseGrantAsWritten(json);
  const use = grant.mode === 'policy' && grant.auditConfigs !== undefined ? 'write-audit-configs' : 'write';
  // Its advice names the constructs' property, the one a user sets (the method itself was checked by readResource).
  reader.check(() => validateIamResource(grant.resource, () => true, 'resource.', 'policyReadMethod', use));
  reader.check(() => validateGrantValues(grant));
  return grant;
}

/**
 * A grant as an apply left it (to revoke it, to compare it for drift, a
 * twin): the shape is checked, and the resource as far as it goes into the
 * request URL; its values are taken as they are, so revoking never depends
 * on checks stricter than those the grant passed when it was applied.
 */
export function parseAppliedGrant(json: string): Grant {
  return parseGrantAsWritten(json);
}

/** The label text of a grant: the constructs that declare it. */
export function grantLabel(labels: readonly string[]): string {
  return labels.join(', ');
}

/**
 * The label and the twins in a grant's `input`: the constructs that declare
 * it, then, after {@link TWINS_SEPARATOR}, the JSON list of other grants of
 * the stack that may grant the same thing (lib/runner/twins.ts). Twins that
 * cannot be read are dropped: no twin is trusted to keep the grant.
 */
export function parseGrantLabel(input: string | undefined): { readonly label?: string; readonly twins: readonly Grant[] } {
  if (input === undefined) return { twins: [] };
  const at = input.indexOf(TWINS_SEPARATOR);
  if (at < 0) return { label: input, twins: [] };
  const label = input.slice(0, at);
  try {
    const listed = reader.list(reader.json(input.slice(at + TWINS_SEPARATOR.length)), 'twins');
    return { label, twins: listed.map((twin, i) => grantOf(twin, `twins[${i}]`)) };
  } catch {
    return { label, twins: [] };
  }
}

const reader = new MessageReader('grant');

function parseGrantAsWritten(json: string): Grant {
  return grantOf(reader.json(json), '');
}

/** `field` is the grant's path in the message, `''` for the grant itself. */
function grantOf(value: unknown, field: string): Grant {
  const at = (name: string) => (field ? `${field}.${name}` : name);
  const grant = reader.object(value, field || 'the grant');
  const mode = reader.oneOf(grant.mode, at('mode'), ['member', 'binding', 'policy'] as const);
  const resource = readResource(reader, grant.resource, at('resource'));
  switch (mode) {
    case 'member':
      return {
        mode,
        resource,
        role: reader.text(grant.role, at('role')),
        member: reader.text(grant.member, at('member')),
        ...optionalCondition(grant.condition, at('condition')),
      };
    case 'binding':
      return {
        mode,
        resource,
        role: reader.text(grant.role, at('role')),
        members: reader.texts(grant.members, at('members')),
        ...optionalCondition(grant.condition, at('condition')),
      };
    case 'policy':
      return {
        mode,
        resource,
        bindings: reader.list(grant.bindings, at('bindings')).map((b, i) => bindingOf(b, at(`bindings[${i}]`))),
        ...(grant.auditConfigs === undefined
          ? {}
          : {
              auditConfigs: reader.list(grant.auditConfigs, at('auditConfigs')).map((c, i) => auditConfigOf(c, at(`auditConfigs[${i}]`))),
            }),
      };
  }
}

/**
 * A policy's resource, in a grant or a query (`field` its path there, `''`
 * at the top): what goes into the request URL is checked, by the validators
 * the constructs use.
 */
export function readResource(reader: MessageReader, value: unknown, field: string): IamResource {
  const resource = reader.object(value, field || 'the query');
  const at = (name: string) => (field ? `${field}.${name}` : name);
  const service = reader.text(resource.service, at('service'));
  const apiVersion = reader.text(resource.apiVersion, at('apiVersion'));
  const name = reader.text(resource.name, at('name'));
  const given = resource.getIamPolicyMethod;
  const method = reader.check(() => {
    validateServiceName(service, at('service'));
    validateApiVersion(apiVersion, at('apiVersion'));
    validateResourceName(name, at('name'));
    if (given === undefined) return undefined;
    validateGetIamPolicyMethod(given, at('getIamPolicyMethod'));
    return given;
  });
  return { service, apiVersion, name, ...(method === undefined ? {} : { getIamPolicyMethod: method }) };
}

function bindingOf(value: unknown, field: string): GrantBinding {
  const binding = reader.object(value, field);
  return {
    role: reader.text(binding.role, `${field}.role`),
    members: reader.texts(binding.members, `${field}.members`),
    ...optionalCondition(binding.condition, `${field}.condition`),
  };
}

function auditConfigOf(value: unknown, field: string): AuditConfig {
  const config = reader.object(value, field);
  return {
    service: reader.text(config.service, `${field}.service`),
    auditLogConfigs: reader.list(config.auditLogConfigs ?? [], `${field}.auditLogConfigs`).map((c, i) => {
      const logField = `${field}.auditLogConfigs[${i}]`;
      const logConfig = reader.object(c, logField);
      return {
        logType: reader.text(logConfig.logType, `${logField}.logType`),
        exemptedMembers: reader.texts(logConfig.exemptedMembers ?? [], `${logField}.exemptedMembers`),
      };
    }),
  };
}

function optionalCondition(value: unknown, field: string): { condition?: ConditionInput } {
  if (value === undefined || value === null) return {};
  const condition = reader.object(value, field);
  const description = reader.optionalString(condition.description, `${field}.description`);
  return {
    condition: {
      expression: reader.text(condition.expression, `${field}.expression`),
      title: reader.text(condition.title, `${field}.title`),
      ...(description === undefined ? {} : { description }),
    },
  };
}
