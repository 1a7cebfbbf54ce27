/** Longest text taken from an answer or a library error into an error message. */
export const MAX_MESSAGE_CHARS = 1_000;

const REDACTED = '[REDACTED]';
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;
const AUTHORIZATION_VALUE = /\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)[^"'\r\n,;}]+/gi;
// RFC 6750's b64token.
const BEARER = /\bBearer\s+[A-Za-z0-9\-._~+/]+=*/gi;
const GOOGLE_ACCESS_TOKEN = /\bya29\.[A-Za-z0-9\-._~+/]+=*/g;
// OAuth and STS parameters that carry a secret, as a form (`subject_token=…`) or JSON (`"subject_token": "…"`) echoes them.
const SECRET_FIELDS =
  'subject_token|actor_token|client_secret|refresh_token|access_token|id_token|assertion|private_key|password|code_verifier';
const SECRET_FORM_FIELD = new RegExp(`\\b(${SECRET_FIELDS})=[^&\\s"']+`, 'gi');
const SECRET_JSON_FIELD = new RegExp(`("(?:${SECRET_FIELDS})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
// C0 and C1 controls (newlines included: a message is one line) and the bidi overrides that reorder terminal text.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;

/**
 * Makes text from outside (an answer's body, a library's error) safe to print:
 * private keys, `Authorization` values, bearer and `ya29.` tokens, OAuth/STS
 * secret parameters (`subject_token=…`, `"client_secret": "…"`) and every
 * given secret are replaced, control characters become spaces, and the result
 * is cut at `maxChars`.
 */
export function sanitize(text: string, secrets: readonly (string | undefined)[] = [], maxChars = MAX_MESSAGE_CHARS): string {
  let out = text;
  for (const secret of secrets) {
    // Short values would redact ordinary words; tokens and keys are long.
    if (secret && secret.length >= 8) out = out.split(secret).join(REDACTED);
  }
  out = out
    .replace(PRIVATE_KEY, '[REDACTED PRIVATE KEY]')
    .replace(AUTHORIZATION_VALUE, `$1$2${REDACTED}`)
    .replace(BEARER, `Bearer ${REDACTED}`)
    .replace(GOOGLE_ACCESS_TOKEN, REDACTED)
    .replace(SECRET_FORM_FIELD, `$1=${REDACTED}`)
    .replace(SECRET_JSON_FIELD, `$1"${REDACTED}"`)
    .replace(CONTROL, ' ')
    .trim();
  return out.length > maxChars ? `${out.slice(0, maxChars)}… (${out.length - maxChars} more characters)` : out;
}
