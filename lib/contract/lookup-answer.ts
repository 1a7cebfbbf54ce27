/**
 * The answer of `runner.js lookup`, the Direct form's read run synchronously
 * by the synthesizing process (lib/lookups/runner-lookup.ts): the typed value,
 * or the error with what the caller needs to rebuild it (Google's status, or
 * the argument that was refused). Errors are answers, not crashes, so the
 * caller can tell Google's NOT_FOUND from a runner that failed to start.
 */
export type LookupAnswer =
  | { readonly value: object; readonly project: string }
  | {
      readonly error:
        | { readonly kind: 'google'; readonly httpStatus: number; readonly status: string; readonly apiMessage: string }
        | { readonly kind: 'credentials'; readonly httpStatus: number; readonly apiMessage: string }
        | { readonly kind: 'argument'; readonly field: string; readonly value: unknown; readonly reason: string }
        | { readonly kind: 'other'; readonly message: string };
    };
