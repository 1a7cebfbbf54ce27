import { CredentialsError, GoogleApiError } from '../api/errors';
import { FAILURE_KINDS, type FailureKind } from '../api/retry-policy';
import { IamValidationError } from '../iam/errors';
import { ContractError } from './contract-error';
import { MessageReader } from './message-reader';

/**
 * The answer of the provider's lookup mode (`terraform-provider-googleiam.js lookup`), the Direct form's read run synchronously
 * by the synthesizing process (lib/lookups/provider-lookup.ts): the typed value,
 * or the error with what the caller needs to rebuild it (Google's status and
 * what the failure calls for, or the argument that was refused). Errors are
 * answers, not crashes, so the caller can tell Google's NOT_FOUND from a
 * lookup mode that failed to start.
 */
export type LookupAnswer =
  | { readonly value: object; readonly project: string }
  | {
      readonly error:
        | {
            readonly kind: 'google';
            readonly httpStatus: number;
            readonly status: string;
            readonly apiMessage: string;
            readonly failureKind: FailureKind;
          }
        | { readonly kind: 'credentials'; readonly httpStatus: number; readonly apiMessage: string; readonly failureKind: FailureKind }
        | { readonly kind: 'argument'; readonly field: string; readonly value: unknown; readonly reason: string }
        | { readonly kind: 'other'; readonly message: string };
    };

/** The answer to a read that failed: the error, in the form the synthesizing process rebuilds it from. */
export function lookupAnswerOfError(error: unknown): LookupAnswer {
  if (error instanceof CredentialsError) {
    const { httpStatus, apiMessage, failureKind } = error;
    return { error: { kind: 'credentials', httpStatus, apiMessage, failureKind } };
  }
  if (error instanceof GoogleApiError) {
    const { httpStatus, status, apiMessage, failureKind } = error;
    return { error: { kind: 'google', httpStatus, status, apiMessage, failureKind } };
  }
  // A query refused for one of its values is answered as the lookup would have refused the argument.
  if (error instanceof IamValidationError || (error instanceof ContractError && error.kind === 'value')) {
    return { error: { kind: 'argument', field: error.field, value: error.value, reason: error.reason } };
  }
  return { error: { kind: 'other', message: (error as Error).message } };
}

/** The answer as the lookup mode writes it on stdout. */
export function serializeLookupAnswer(answer: LookupAnswer): string {
  return JSON.stringify(answer);
}

const reader = new MessageReader('lookup answer');

/** The lookup mode's answer, every part checked (a ContractError for anything else, e.g. a bundle of another version). */
export function parseLookupAnswer(text: string): LookupAnswer {
  const answer = reader.object(reader.json(text), '');
  if (answer.error === undefined) {
    return { value: reader.object(answer.value, 'value'), project: reader.string(answer.project, 'project') };
  }
  const error = reader.object(answer.error, 'error');
  const kind = reader.oneOf(error.kind, 'error.kind', ['google', 'credentials', 'argument', 'other'] as const);
  switch (kind) {
    case 'google':
      return {
        error: {
          kind,
          httpStatus: reader.number(error.httpStatus, 'error.httpStatus'),
          status: reader.text(error.status, 'error.status'),
          apiMessage: reader.string(error.apiMessage, 'error.apiMessage'),
          failureKind: reader.oneOf(error.failureKind, 'error.failureKind', FAILURE_KINDS),
        },
      };
    case 'credentials':
      return {
        error: {
          kind,
          httpStatus: reader.number(error.httpStatus, 'error.httpStatus'),
          apiMessage: reader.string(error.apiMessage, 'error.apiMessage'),
          failureKind: reader.oneOf(error.failureKind, 'error.failureKind', FAILURE_KINDS),
        },
      };
    case 'argument':
      return {
        error: {
          kind,
          field: reader.string(error.field, 'error.field'),
          value: error.value,
          reason: reader.string(error.reason, 'error.reason'),
        },
      };
    case 'other':
      return { error: { kind, message: reader.string(error.message, 'error.message') } };
  }
}
