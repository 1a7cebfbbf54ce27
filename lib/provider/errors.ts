import { GoogleApiError } from '../api/errors';
import { IamValidationError } from '../iam/errors';
import { snakeCase } from '../iam/name-style';
import { roleNotSupported, type RoleWarning } from '../iam/role-check';
import { ContractError } from '../contract/contract-error';
import type { AttributePath, Diagnostics } from './framework/diagnostics';

/**
 * The provider's own errors (Google's are GoogleApiError), and how any error
 * becomes a diagnostic: every message and summary is built here, so the
 * wording lives in one place.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    public readonly code: 'NO_ETAG' | 'CANCELLED' | 'OUTCOME_UNKNOWN' | 'NOT_VISIBLE' | 'IMPORT_ID' | 'NOT_FOUND_ON_IMPORT',
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** How many removed grants a plan's warning lists before it says how many more. */
const REMOVED_SHOWN = 10;

/** What Terraform prints when a call is cut short by Ctrl-C. */
export const CANCELLED_MESSAGE = 'cancelled: Terraform asked the provider to stop (Ctrl-C)';

export const ProviderErrors = {
  blindWrite: () =>
    new ProviderError(
      "the policy that was read has no etag, and a write without one would replace the policy blindly; nothing was written. Check that the endpoint is Google's (see CLOUDSDK_API_ENDPOINT_OVERRIDES_*)",
      'NO_ETAG',
    ),
  /** Thrown in place of a write not yet sent when the provider is stopping: Google's CANCELLED, never retried, nothing sent. */
  writeCancelled: () =>
    new GoogleApiError(499, 'CANCELLED', `${CANCELLED_MESSAGE}; this change was not sent to Google`, undefined, 'permanent'),
  cancelled: () => new ProviderError(`${CANCELLED_MESSAGE}; this change was not sent to Google, nothing was written`, 'CANCELLED'),
  /**
   * A write was sent, its answer lost, and nothing could tell whether Google
   * carried it out (`why`: NO_WRITE_CONFIRMED). What Terraform keeps then is
   * the resource's to say (`keptAfterUnknownOutcome`).
   */
  outcomeUnknown: (failure: string, why: string) =>
    new ProviderError(
      `${failure.replace(/\.$/, '')}. The write was sent but its answer was lost, and ${why}: whether Google carried it out is unknown`,
      'OUTCOME_UNKNOWN',
    ),
  /** What Terraform keeps of a grant whose create, update or delete has an unknown outcome, and what it does next (resources/failed-write.ts). */
  keptAfterUnknownOutcome: {
    create:
      'Terraform keeps the grant in its state, marked tainted, so nothing is lost track of: the next terraform apply revokes and grants it again, and terraform destroy (or deleting the grant from the configuration) revokes it',
    update:
      'Terraform keeps the values from before this change in its state, and the new ones with them: the next terraform plan shows the change again and terraform apply makes it (revoking what it revokes); terraform destroy (or deleting the grant from the configuration) revokes both',
    delete: 'Terraform keeps the grant in its state: the next terraform apply or terraform destroy revokes it again',
  },
  /** Why only a later write could have settled a lost one. */
  NO_WRITE_CONFIRMED:
    "no later write with a fresh etag confirmed the policy before the retries ended (a read alone settles nothing: Google's IAM reads may lag writes, the IAM API reference says each read is eventually consistent)",
  /**
   * A grant's create or update gave up waiting for what it names to become
   * visible to IAM (retry-policy.ts `notYetVisible`): `what` is the resource's
   * name or the member.
   */
  notVisible: (kind: 'resource' | 'member', what: string, waited: string, attempts: number, cause: GoogleApiError) =>
    new ProviderError(
      `${cause.message}. ${kind === 'resource' ? `IAM still did not see the resource ${what}` : `IAM still refused the member ${what}`} ` +
        `after waiting ${waited} (${attempts} attempts): Google's IAM is eventually consistent, and something created moments ago ` +
        `can answer so for a while, but not this long. Check that it exists${kind === 'resource' ? ' and that the credentials may manage its IAM policy' : ''}; ` +
        "the provider block's eventual_consistency_timeout sets how long to wait",
      'NOT_VISIBLE',
    ),
  /** Google refused a role no binding of this grant holds (`reportWriteError`). */
  refusedOtherBinding: (role: string) =>
    `${role} is not this grant's role: the policy already holds a binding of ${role}, made elsewhere, and every write ` +
    'sends the whole policy back, so Google refuses every write of it until that binding is changed or removed (in the console, ' +
    'or by whatever made it)',
  /**
   * A create's plan read answered NOT_FOUND: a name with a typo (the apply would wait out the visibility budget for
   * it), or a resource this apply creates (nothing wrong). A warning: this provider cannot see other providers' plans.
   */
  missingAtPlan: (resource: string, waits: string, cause: GoogleApiError) =>
    `${cause.message}. If another resource of this apply creates ${resource}, nothing is wrong; ` +
    `else check the name: the apply will wait up to ${waits} for it to appear (the provider block's eventual_consistency_timeout), then fail`,
  importId: (id: string, expected: string) =>
    new ProviderError(
      `wrong import ID ${JSON.stringify(id)}: expected ${expected} (the Terraform google provider's IAM import format)`,
      'IMPORT_ID',
    ),
  /** Another resource of the configuration grants the same member, role and condition (plan). */
  grantedTwice: (entry: string, resource: string, declaredBy: string) =>
    `${entry} on ${resource} is also granted by another resource of this configuration (${declaredBy}): declare each grant once, since deleting either resource would revoke it for both`,
  /** Another resource of the configuration claims what this one owns, or owns what this one claims (plan, or apply for values learnt then). */
  claimedTwice: (grant: string, resource: string, why: string, declaredBy: string) =>
    `${grant} on ${resource} is also claimed by another resource of this configuration (${declaredBy}): ${why}, so each apply of one would undo the other. ` +
    "Declare it in one resource: list the principal in the binding, the policy or the principal's roles that owns it, or drop the other grant",
  /** The summary of a claim overlap at destroy, where it is a warning. */
  OVERLAP_AT_DESTROY: 'terraform destroy goes ahead: it revokes what each resource holds',
  /** A refresh answered the empty policy soon after the grant's own write (resources/own-writes.ts `emptyAfterOwnWrite`). */
  emptyAfterOwnWrite: (grant: string) =>
    `Google answered the empty policy, which this provider's write of ${grant} replaced a moment ago. Google's IAM reads may lag writes, ` +
    'so the grant is kept in the state and the plan grants it again (nothing changes where Google holds it; where the resource was ' +
    'deleted and created again, the apply grants it anew)',
  /** A refresh soon after a write whose outcome is unknown answered less than the state holds (resources/failed-write.ts). */
  keptUnsettled: (grant: string) =>
    `The last write of ${grant} had an unknown outcome, and Google's IAM reads may lag writes, so a read that lacks part of it ` +
    'proves nothing: the state keeps the grant, and the next apply writes it again (or revokes it, if it left the configuration)',
  /** What an authoritative resource's apply removes that its configuration does not list (plan). */
  removesUnlisted: (grant: string, removed: readonly string[]) => {
    const shown = removed.slice(0, REMOVED_SHOWN);
    const more = removed.length - shown.length;
    return (
      `this resource makes ${grant} exactly what it declares, so terraform apply removes what Google holds there now and the configuration does not list: ` +
      `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}. List them in the configuration to keep them`
    );
  },
  /** The detail under the summary that names the resource type and the import ID. */
  nothingToImport: (what: string) => new ProviderError(what, 'NOT_FOUND_ON_IMPORT'),
  /** A `moved` block this provider cannot map (MoveResourceState is told the types, not the addresses). */
  moveRefused: (source: string, target: string, why: string) =>
    `A moved block cannot bring a ${source} into ${target}: ${why}. Nothing was changed. Import it instead: an \`import\` block for the ${target} (docs/hcl.md, "From the google provider"), and for the ${source} a \`removed\` block with \`lifecycle { destroy = false }\` in place of the \`moved\` block, so that it leaves the state without being destroyed.`,
} as const;

/** Whether `error` says Google may hold a change whose answer was lost (ProviderErrors.outcomeUnknown). */
export function isOutcomeUnknown(error: unknown): boolean {
  return error instanceof ProviderError && error.code === 'OUTCOME_UNKNOWN';
}

/** Whether Google says the resource (not the policy's binding) does not exist. */
export function isNotFound(error: unknown): boolean {
  return error instanceof GoogleApiError && (error.status === 'NOT_FOUND' || error.httpStatus === 404);
}

/**
 * Reports `error` as an error diagnostic under `summary`: Google's status and
 * message, or a refused value under the attribute it names (lib/iam's field
 * names are the constructs' camelCase; `attributes` maps them to the schema's).
 */
export function reportError(diagnostics: Diagnostics, summary: string, error: unknown, attributes?: FieldToAttribute): void {
  const { message, attribute } = problemOf(error, attributes);
  diagnostics.error(summary, message, attribute);
}

/**
 * A grant's failed create, update or delete under `summary`: as `reportError`,
 * and for an unknown outcome what Terraform keeps and does next.
 */
export function reportWriteError(
  diagnostics: Diagnostics,
  summary: string,
  error: unknown,
  operation: 'create' | 'update' | 'delete',
  ownRoles: readonly string[] = [],
): void {
  if (isOutcomeUnknown(error)) {
    diagnostics.error(summary, `${(error as Error).message}. ${ProviderErrors.keptAfterUnknownOutcome[operation]}`);
    return;
  }
  // Every write sends the whole policy back: a binding someone else made with a role Google now refuses fails
  // every grant's write, naming a role that is not the grant's own.
  const refused = error instanceof GoogleApiError ? roleNotSupported(error.apiMessage) : undefined;
  if (refused !== undefined && !ownRoles.includes(refused)) {
    diagnostics.error(summary, `${error instanceof Error ? error.message : String(error)}. ${ProviderErrors.refusedOtherBinding(refused)}`);
    return;
  }
  reportError(diagnostics, summary, error);
}

/**
 * A value refused where an error would stop `terraform destroy` (see the
 * resource types' `validate`): a warning that says the apply will refuse it.
 */
export function reportRefusalAhead(diagnostics: Diagnostics, summary: string, error: unknown): void {
  const { message, attribute } = problemOf(error);
  diagnostics.warning(
    summary,
    `${message}. terraform apply refuses it before sending anything to Google (a warning here, not an error, so that terraform destroy still works with this configuration)`,
    attribute,
  );
}

/** The summary of a grant's role that Google does not list (reported as the other refusals are). */
export const UNKNOWN_ROLE_SUMMARY = 'Unknown IAM role';

/** A role Google takes but that deserves a word (lib/iam/role-check.ts): a warning on the attribute that holds it. */
export function reportRoleWarning(diagnostics: Diagnostics, warning: RoleWarning): void {
  const summary = warning.kind === 'deprecated' ? 'Deprecated IAM role' : 'IAM role not grantable on this resource type';
  diagnostics.warning(
    summary,
    `${warning.field}: ${warning.reason} (got ${IamValidationError.show(warning.role)})`,
    attributePath(warning.field),
  );
}

/** The message of `error`, and the attribute it is about when it refuses a value. */
function problemOf(error: unknown, attributes?: FieldToAttribute): { message: string; attribute?: AttributePath } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof IamValidationError || (error instanceof ContractError && error.kind === 'value')) {
    const field = (error as IamValidationError).field;
    return { message, attribute: attributes ? attributes(field) : attributePath(field) };
  }
  return { message };
}

/** Maps a lib/iam field name to the schema's attribute path. */
export type FieldToAttribute = (field: string) => AttributePath;

/** The entries of a bulk grant (`grants`) and of a principal's roles (`roles`) are `grant` blocks in HCL. */
const ENTRY_BLOCKS: Readonly<Record<string, string>> = { grants: 'grant', roles: 'grant' };

/**
 * `auditConfigs[0].auditLogConfigs[1].logType` → `['audit_configs', 0, 'audit_log_configs', 1, 'log_type']`;
 * `grants[2].member` → `['grant', 2, 'member']`.
 */
export function attributePath(field: string, prefix: AttributePath = []): AttributePath {
  const path: (string | number)[] = [...prefix];
  for (const part of field.split('.')) {
    const match = /^([A-Za-z_]+)((?:\[\d+\])*)$/.exec(part);
    if (!match) return path.length > prefix.length ? path : [...prefix, snakeCase(part)];
    path.push(path.length === prefix.length ? (ENTRY_BLOCKS[match[1]] ?? snakeCase(match[1])) : snakeCase(match[1]));
    for (const index of match[2].matchAll(/\[(\d+)\]/g)) path.push(Number(index[1]));
  }
  return path;
}
