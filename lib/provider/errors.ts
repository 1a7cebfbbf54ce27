import { GoogleApiError } from '../api/errors';
import { IamValidationError } from '../iam/errors';
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
    public readonly code: 'NO_ETAG' | 'CANCELLED' | 'OUTCOME_UNKNOWN' | 'IMPORT_ID' | 'NOT_FOUND_ON_IMPORT',
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

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
  /** A write was sent, its answer lost, and no read could tell whether Google carried it out. */
  outcomeUnknown: (failure: string, readFailure: string) =>
    new ProviderError(
      `${failure}. The write was sent but its answer was lost, and a read to check it failed too (${readFailure}): ` +
        'whether Google carried it out is unknown. Run terraform apply again: it reads the policy afresh and completes or repairs it',
      'OUTCOME_UNKNOWN',
    ),
  importId: (id: string, expected: string) =>
    new ProviderError(
      `wrong import ID ${JSON.stringify(id)}: expected ${expected} (the Terraform google provider's IAM import format)`,
      'IMPORT_ID',
    ),
  /** The detail under the summary that names the resource type and the import ID. */
  nothingToImport: (what: string) => new ProviderError(what, 'NOT_FOUND_ON_IMPORT'),
} as const;

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
  if (error instanceof IamValidationError || (error instanceof ContractError && error.kind === 'value')) {
    const field = (error as IamValidationError).field;
    const attribute = attributes ? attributes(field) : attributePath(field);
    diagnostics.error(summary, error.message, attribute);
    return;
  }
  diagnostics.error(summary, error instanceof Error ? error.message : String(error));
}

/** Maps a lib/iam field name to the schema's attribute path. */
export type FieldToAttribute = (field: string) => AttributePath;

/**
 * `auditConfigs[0].auditLogConfigs[1].logType` → `['audit_configs', 0, 'audit_log_configs', 1, 'log_type']`.
 */
export function attributePath(field: string, prefix: AttributePath = []): AttributePath {
  const path: (string | number)[] = [...prefix];
  for (const part of field.split('.')) {
    const match = /^([A-Za-z_]+)((?:\[\d+\])*)$/.exec(part);
    if (!match) return path.length > prefix.length ? path : [...prefix, snakeCase(part)];
    path.push(snakeCase(match[1]));
    for (const index of match[2].matchAll(/\[(\d+)\]/g)) path.push(Number(index[1]));
  }
  return path;
}

/** `auditLogConfigs` → `audit_log_configs`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}
