import type { Grant, IamResource } from '../iam/grant';
import { parseAppliedGrant, readResource } from './grant';
import { MessageReader, type JsonObject } from './message-reader';

/** How a drift check picks the grants it compares (see {@link DriftQuery}). */
export type DriftCompare = 'applied' | 'all' | 'state';

/** What a drift query says about where to report: the grants resource, the repair and the stack. */
interface DriftQueryBase {
  /** The Terraform address of the grants resource. */
  readonly resource: string;
  /** The Terraform address of the resource that applies them: a grant whose instance there is missing or tainted has an apply pending. */
  readonly applied: string;
  /** The Terraform address whose replacement re-applies every grant of the stack: the repair. */
  readonly repair: string;
  /** The stack's name, for the cdktf form of the repair. */
  readonly stack: string;
}

/** One grant a drift check compares: its key in the grants resource, its label, and its JSON as the grants resource holds it. */
export interface CheckedGrant {
  readonly key: string;
  readonly label: string;
  /** The grant message as written (compared with the state's to tell applied grants from pending ones). */
  readonly json: string;
  readonly grant: Grant;
}

/**
 * The drift check of one policy, parsed:
 * - `applied`: compare only the grants the Terraform state holds as configured
 *   (the read is made while planning, before any pending change is applied);
 * - `all`: compare every grant (the read waits for pending changes);
 * - `state`: only the grants' keys are named, and each grant (with the policy's
 *   name) is taken from the state as the last apply left it: for a policy whose
 *   name Terraform knows only after apply.
 */
export type DriftQuery =
  | (DriftQueryBase & { readonly compare: 'applied' | 'all'; readonly policy: IamResource; readonly grants: readonly CheckedGrant[] })
  | (DriftQueryBase & { readonly compare: 'state'; readonly keys: readonly string[] });

/**
 * The query as synth writes it (strings only, as `external` requires). With
 * `applied` or `all`, `grants` is the text of a Terraform expression that
 * Terraform turns into the JSON list `[{ key, label, grant }]`; with `state`,
 * the keys are listed and written here.
 */
export type DriftQueryFields =
  | (DriftQueryBase & { readonly compare: 'applied' | 'all'; readonly policy: IamResource; readonly grants: string })
  | (DriftQueryBase & { readonly compare: 'state'; readonly keys: readonly string[] });

/** The `external` query of a drift check: the policy's fields (empty for `state`), where to report, and the grants. */
export function serializeDriftQuery(fields: DriftQueryFields): Record<string, string> {
  const { resource, applied, repair, stack, compare } = fields;
  if (compare === 'state') {
    const grants = JSON.stringify(fields.keys.map((key) => ({ key })));
    return { service: '', apiVersion: '', name: '', resource, applied, repair, stack, compare, grants };
  }
  const { service, apiVersion, name, getIamPolicyMethod } = fields.policy;
  return {
    service,
    apiVersion,
    name,
    ...(getIamPolicyMethod ? { getIamPolicyMethod } : {}),
    resource,
    applied,
    repair,
    stack,
    compare,
    grants: fields.grants,
  };
}

const reader = new MessageReader('drift query');

/**
 * Parses a drift query. The policy is checked as a grant's resource is, and
 * each grant is parsed as the grant message, as applied (a drift check
 * compares, it never writes).
 */
export function parseDriftQuery(json: string): DriftQuery {
  const query = reader.object(reader.json(json), 'the query');
  const base = {
    resource: reader.text(query.resource, 'resource'),
    applied: reader.text(query.applied, 'applied'),
    repair: reader.text(query.repair, 'repair'),
    stack: reader.text(query.stack, 'stack'),
  };
  const compare = reader.oneOf(query.compare, 'compare', ['applied', 'all', 'state'] as const);
  const listed = reader.list(reader.json(reader.string(query.grants, 'grants')), 'grants').map((g, i) => reader.object(g, `grants[${i}]`));
  if (compare === 'state') return { ...base, compare, keys: listed.map((g, i) => reader.text(g.key, `grants[${i}].key`)) };
  const policy = readResource(reader, query, '');
  return { ...base, compare, policy, grants: listed.map((g, i) => checkedGrant(g, `grants[${i}]`)) };
}

function checkedGrant(g: JsonObject, field: string): CheckedGrant {
  const json = reader.string(g.grant, `${field}.grant`);
  return { key: reader.text(g.key, `${field}.key`), label: reader.string(g.label, `${field}.label`), json, grant: parseAppliedGrant(json) };
}
