import type { Grant, IamResource } from '../../iam/grant';
import type { Policy } from '../../iam/types';
import { ContractError } from '../../contract/contract-error';
import { parseGooglePolicyData } from '../../contract/moved-state';
import { TYPED_RESOURCE_TYPE_ROWS } from '../../resource-types/typed-resource-types';
import type { CtyObject } from '../framework/cty';
import type { MoveSource } from '../framework/resource';
import { GOOGLE_GENERIC_MOVE_ROWS, genericMovedResource } from './google-move-table';
import { auditConfigsFrom, bindingsFrom, encodeAuditConfigs } from './grant-values';
import { GENERIC_DESCRIPTOR, grantTypeName, typedDescriptor, type IamTypeDescriptor } from './iam-type-descriptor';

/**
 * Where a `moved` block can bring a grant from (MoveResourceState, Terraform
 * 1.8+): the google provider's `_iam_member`, `_iam_binding` and `_iam_policy`
 * of the resource types this provider has a typed family for, and this
 * provider's own types of another family (a typed kind to the generic kind of
 * the same resource, and back). What the source's state holds becomes this
 * provider's state exactly as an import would write it (the google provider's
 * normal forms carry over: the full `name`, an empty condition `description` as
 * absent, its LIST `condition` as the single block), so the move plans no
 * change and writes nothing. Anything else is refused, naming the source, never
 * guessed.
 */

/**
 * The google provider's type names (before `_iam_member`, `_iam_binding`,
 * `_iam_policy`) of the typed rows (lib/resource-types/typed-resource-types.ts,
 * by stem) whose IAM resources it has, each with its resource in `name` (the
 * full resource name, as the google provider normalizes it). A row added here
 * moves in from the google provider. The google types that move into the
 * generic kinds only are in google-move-table.ts.
 */
export const GOOGLE_MOVE_SOURCES: Readonly<Record<string, string>> = {
  AddressGroup: 'google_network_security_address_group',
};

/** The kinds the google provider has, by their type names' last word. */
const GOOGLE_KINDS = ['member', 'binding', 'policy'] as const;
type GoogleKind = (typeof GOOGLE_KINDS)[number];

/** The schema version of the google provider's IAM resources (and this provider's): the only one read. */
const SCHEMA_VERSION = 0;

/** What a move brings: the grant's resource, its kind's attributes as this provider's JSON state writes them, and the etag. */
export interface MovedGrant {
  readonly mode: Grant['mode'];
  readonly resource: IamResource;
  /** The kind's own attributes (and `check_suppressions`), by this provider's schema names; JSON (null when unset). */
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly etag?: string;
  /** Whether the source is this provider's own (its private state then carries over). */
  readonly own: boolean;
}

/** Why a move is refused: the message of the target's error. */
export class MoveRefusal extends Error {}

interface GoogleSourceType {
  readonly mode: GoogleKind;
  /** The generic kinds only: a source without a typed family of this provider. */
  readonly genericOnly: boolean;
  /** The resource its state names, or what it lacks. */
  resourceOf(state: Readonly<Record<string, unknown>>): IamResource | string;
}

const GOOGLE_TYPES = new Map<string, GoogleSourceType>([
  ...TYPED_RESOURCE_TYPE_ROWS.filter((row) => GOOGLE_MOVE_SOURCES[row.stem] !== undefined).flatMap((row) => {
    const descriptor = typedDescriptor(row);
    return GOOGLE_KINDS.map((mode) => {
      const type: GoogleSourceType = {
        mode,
        genericOnly: false,
        resourceOf: (state) =>
          typeof state.name === 'string' && state.name !== '' ? descriptor.resourceOf({ name: state.name })! : 'has no name',
      };
      return [`${GOOGLE_MOVE_SOURCES[row.stem]}_iam_${mode}`, type] as const;
    });
  }),
  ...GOOGLE_GENERIC_MOVE_ROWS.flatMap((row) =>
    GOOGLE_KINDS.map((mode) => {
      const type: GoogleSourceType = { mode, genericOnly: true, resourceOf: (state) => genericMovedResource(row, state) };
      return [`${row.google}_iam_${mode}`, type] as const;
    }),
  ),
]);

const OWN_MODES: readonly Grant['mode'][] = ['member', 'binding', 'policy', 'members', 'memberRoles'];
const OWN_TYPES = new Map<string, { readonly descriptor: IamTypeDescriptor; readonly mode: Grant['mode'] }>(
  [...TYPED_RESOURCE_TYPE_ROWS.map(typedDescriptor), GENERIC_DESCRIPTOR].flatMap((descriptor) =>
    OWN_MODES.map((mode) => [grantTypeName(descriptor.typeInfix, mode), { descriptor, mode }] as const),
  ),
);

/** The google provider's source types a `moved` block can bring into this provider's types. */
export const GOOGLE_SOURCE_TYPES: readonly string[] = [...GOOGLE_TYPES.keys()];

/** Which provider `address` names, matched loosely: any host, or none (OpenTofu may pass a bare name). */
function providerOf(address: string): 'google' | 'googleiam' | undefined {
  const parts = address.trim().split('/');
  const type = parts[parts.length - 1];
  const namespace = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  if ((type === 'google' || type === 'google-beta') && (namespace === undefined || namespace === 'hashicorp')) return 'google';
  if (type === 'googleiam' && (namespace === undefined || namespace === 'cdktf-google-iam')) return 'googleiam';
  return undefined;
}

/** What `source` holds, as a grant of this provider's `target` type of kind `mode`; throws a MoveRefusal saying why it cannot be. */
export function movedGrant(source: MoveSource, target: { readonly typeName: string; readonly mode: Grant['mode'] }): MovedGrant {
  const provider = providerOf(source.providerAddress);
  const known =
    provider === 'google' ? GOOGLE_TYPES.get(source.typeName) : provider === 'googleiam' ? OWN_TYPES.get(source.typeName) : undefined;
  if (!known) {
    throw new MoveRefusal(
      provider === undefined
        ? `this provider takes moves from hashicorp/google, hashicorp/google-beta and its own types only, not from ${JSON.stringify(source.providerAddress)}`
        : provider === 'google'
          ? `this provider does not map the google provider's ${source.typeName} (it maps ${GOOGLE_SOURCE_TYPES.join(', ')})`
          : `${source.typeName} is not one of this provider's grant types`,
    );
  }
  if (known.mode !== target.mode)
    throw new MoveRefusal(`a ${source.typeName} grants differently from a ${target.typeName} (${known.mode}, not ${target.mode})`);
  if (source.schemaVersion > SCHEMA_VERSION) {
    throw new MoveRefusal(
      `the ${source.typeName} state was written with schema version ${source.schemaVersion}, newer than the version ${SCHEMA_VERSION} this provider reads`,
    );
  }
  const raw = source.state;
  const etag = optionalString(raw, 'etag', source.typeName);
  const ownType = provider === 'googleiam' ? OWN_TYPES.get(source.typeName) : undefined;
  if (ownType) {
    const resource = ownType.descriptor.resourceOf(raw as CtyObject);
    if (resource === undefined) throw new MoveRefusal(`the ${source.typeName} state names no resource`);
    const resourceNames = new Set([...ownType.descriptor.resourceAttributes.map((a) => a.name), 'id', 'etag']);
    const attributes = Object.fromEntries(Object.entries(raw).filter(([name]) => !resourceNames.has(name)));
    return { mode: ownType.mode, resource, attributes, etag, own: true };
  }
  const google = GOOGLE_TYPES.get(source.typeName)!;
  const generic = grantTypeName(GENERIC_DESCRIPTOR.typeInfix, target.mode);
  if (google.genericOnly && target.typeName !== generic)
    throw new MoveRefusal(
      `a ${source.typeName} moves into the generic ${generic} (service, api_version and name), not into ${target.typeName}`,
    );
  const resource = google.resourceOf(raw);
  if (typeof resource === 'string') throw new MoveRefusal(`the ${source.typeName} state ${resource}`);
  return {
    mode: google.mode,
    resource,
    attributes: googleAttributes(google.mode, raw, source.typeName),
    etag,
    own: false,
  };
}

/** The kind's attributes of a google provider state, in this provider's JSON shapes. */
function googleAttributes(mode: GoogleKind, raw: Record<string, unknown>, typeName: string): Record<string, unknown> {
  switch (mode) {
    case 'member':
      return {
        role: requiredString(raw, 'role', typeName),
        member: requiredString(raw, 'member', typeName),
        condition: googleCondition(raw, typeName),
      };
    case 'binding': {
      const members = raw.members;
      if (!Array.isArray(members) || !members.every((m) => typeof m === 'string'))
        throw new MoveRefusal(`the ${typeName} state's members are not a list of strings`);
      return { role: requiredString(raw, 'role', typeName), members, condition: googleCondition(raw, typeName) };
    }
    case 'policy':
      return policyAttributes(googlePolicy(requiredString(raw, 'policy_data', typeName), typeName));
  }
}

/** The google provider's `condition` (a LIST of at most one) as the single block; its empty `description` absent, as Google has it. */
function googleCondition(raw: Record<string, unknown>, typeName: string): Record<string, unknown> | null {
  const list = raw.condition;
  if (list === null || list === undefined || (Array.isArray(list) && list.length === 0)) return null;
  if (!Array.isArray(list) || list.length !== 1 || typeof list[0] !== 'object' || list[0] === null)
    throw new MoveRefusal(`the ${typeName} state's condition is not a list of one condition`);
  const condition = list[0] as Record<string, unknown>;
  const what = `${typeName} condition`;
  const description = optionalString(condition, 'description', what);
  return {
    expression: requiredString(condition, 'expression', what),
    title: requiredString(condition, 'title', what),
    description: description || null,
  };
}

/** The google provider's `policy_data` (the policy's JSON: `bindings` and `auditConfigs`) as a policy. */
function googlePolicy(policyData: string, typeName: string): Policy {
  try {
    return parseGooglePolicyData(policyData);
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    throw new MoveRefusal(
      `the ${typeName} state's ${error.field || 'policy_data'} is ${error.reason.replace(/^expected/, 'not what an IAM policy holds: expected')}`,
    );
  }
}

/** A policy's bindings (and audit configs, when it has any) as an import of this provider's policy kind writes them. */
function policyAttributes(policy: Policy): Record<string, unknown> {
  const bindings = bindingsFrom(policy.bindings ?? [], []).map((b) => ({
    role: b.role,
    members: b.members,
    condition: b.condition
      ? { expression: b.condition.expression, title: b.condition.title, description: b.condition.description ?? null }
      : null,
  }));
  const audit = policy.auditConfigs?.length ? encodeAuditConfigs(auditConfigsFrom(policy.auditConfigs, [])) : undefined;
  return { bindings, audit_configs: audit ?? null };
}

function requiredString(raw: Record<string, unknown>, name: string, what: string): string {
  const value = raw[name];
  if (typeof value !== 'string' || value === '') throw new MoveRefusal(`the ${what} state has no ${name}`);
  return value;
}

function optionalString(raw: Record<string, unknown>, name: string, what: string): string | undefined {
  const value = raw[name];
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') throw new MoveRefusal(`the ${what} state's ${name} is not a string`);
  return value;
}
