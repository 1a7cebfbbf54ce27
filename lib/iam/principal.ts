import { IamValidationError } from './errors';
import { hasWhitespace, quote } from './format';
import {
  DOMAIN_PATTERN,
  EMAIL_PATTERN,
  EXPECTED_PRINCIPAL,
  EXPECTED_PRINCIPAL_SET,
  KUBERNETES_SERVICE_ACCOUNT_PATTERN,
  MAX_DOMAIN_LENGTH,
  MAX_EMAIL_LENGTH,
  PRINCIPAL_PATTERNS,
  PRINCIPAL_SET_PATTERNS,
} from './principal-forms';

/** The kinds of principal Google documents. */
export type PrincipalKind =
  | 'allUsers'
  | 'allAuthenticatedUsers'
  | 'user'
  | 'serviceAccount'
  | 'kubernetesServiceAccount'
  | 'group'
  | 'domain'
  | 'principal'
  | 'principalSet';

/** A principal, parsed: its kind, its parts and the key it compares by. */
export interface Principal {
  /** The string as given. */
  readonly raw: string;
  readonly kind: PrincipalKind;
  /** A `deleted:` principal as Google reports it in a policy it read. */
  readonly deleted: boolean;
  /** The part after the type prefix (for deleted ones: without `deleted:` and `?uid=`). */
  readonly value: string;
  /** The `?uid=` part of a deleted principal. */
  readonly uid?: string;
  /**
   * Comparison key: prefix plus the value, with emails and domains lower-cased
   * (Google treats them case-insensitively); `principal*` values keep case.
   */
  readonly key: string;
  /** `group:` and `domain:` principals count toward the 250-per-policy limit. */
  readonly countsAsGroup: boolean;
}

const DELETED = 'deleted:';
const UID_SEPARATOR = '?uid=';
const UID_PATTERN = /^[A-Za-z0-9_-]+$/;

const EXPECTED_FORMS =
  'expected allUsers, allAuthenticatedUsers, user:{email}, serviceAccount:{email}, ' +
  'serviceAccount:{project}.svc.id.goog[{namespace}/{ksa}], group:{email}, domain:{domain}, ' +
  'principal://… or principalSet://…';

type Reject = (reason: string) => never;

/** What one type prefix accepts. */
interface PrincipalType {
  readonly prefix: string;
  readonly countsAsGroup: boolean;
  /** Google reports `deleted:` for these; a deleted email principal carries `?uid=`. */
  readonly deletion: 'never' | 'withUid' | 'plain';
  /** Validates the value after the prefix; returns its kind and comparison form. */
  classify(value: string, reject: Reject): { kind: PrincipalKind; comparable: string };
}

/** Singletons: no prefix, no value. Anything else with a prefix goes through PRINCIPAL_TYPES. */
const SINGLETONS: readonly PrincipalKind[] = ['allUsers', 'allAuthenticatedUsers'];

const PRINCIPAL_TYPES: readonly PrincipalType[] = [
  emailType('user:', 'user', false),
  {
    prefix: 'serviceAccount:',
    countsAsGroup: false,
    deletion: 'withUid',
    classify: (value, reject) =>
      value.includes('.svc.id.goog[')
        ? { kind: 'kubernetesServiceAccount', comparable: checkKubernetesServiceAccount(value, reject) }
        : { kind: 'serviceAccount', comparable: checkEmail(value, reject) },
  },
  emailType('group:', 'group', true),
  {
    prefix: 'domain:',
    countsAsGroup: true,
    deletion: 'never',
    classify: (value, reject) => ({ kind: 'domain', comparable: checkDomain(value, reject) }),
  },
  uriType('principal://', 'principal', PRINCIPAL_PATTERNS, EXPECTED_PRINCIPAL, 'plain'),
  uriType('principalSet://', 'principalSet', PRINCIPAL_SET_PATTERNS, EXPECTED_PRINCIPAL_SET, 'never'),
];

/**
 * Parses any principal that can appear in a policy, `deleted:` ones included.
 * Throws IamValidationError naming the form that was expected.
 */
export function parsePrincipal(raw: string, field = 'member'): Principal {
  const reject: Reject = (reason) => {
    throw new IamValidationError(field, raw, reason);
  };
  checkSingleToken(raw, reject);
  if ((SINGLETONS as readonly string[]).includes(raw)) {
    return { raw, kind: raw as PrincipalKind, deleted: false, value: '', key: raw, countsAsGroup: false };
  }
  const deleted = raw.startsWith(DELETED);
  const typed = deleted ? raw.slice(DELETED.length) : raw;
  const type = PRINCIPAL_TYPES.find((candidate) => typed.startsWith(candidate.prefix)) ?? rejectUnknownType(typed, reject);
  const { value, uid } = deleted ? splitDeleted(typed, type, reject) : { value: typed.slice(type.prefix.length), uid: undefined };
  if (value.length === 0) reject(`nothing after ${quote(type.prefix)}; ${EXPECTED_FORMS}`);

  const { kind, comparable } = type.classify(value, reject);
  const key = `${deleted ? DELETED : ''}${type.prefix}${comparable}${uid === undefined ? '' : UID_SEPARATOR + uid}`;
  return { raw, kind, deleted, value, ...(uid === undefined ? {} : { uid }), key, countsAsGroup: type.countsAsGroup };
}

/**
 * Parses a principal that is to be granted: Google says never to add a
 * `deleted:` principal, so those are refused here.
 */
export function parseGrantPrincipal(raw: string, field = 'member'): Principal {
  const principal = parsePrincipal(raw, field);
  if (principal.deleted) {
    throw new IamValidationError(
      field,
      raw,
      'a deleted: principal cannot be granted a role (Google says never to add one); grant the principal once it is restored',
    );
  }
  return principal;
}

/**
 * True when both strings name the same principal (emails and domains compared
 * case-insensitively). A string that does not parse compares by exact text, so
 * an unknown form read from Google is still matched against itself.
 */
export function samePrincipal(a: string, b: string): boolean {
  return comparisonKey(a) === comparisonKey(b);
}

/** The key `samePrincipal` compares by; the text itself when it does not parse. */
export function comparisonKey(member: string): string {
  try {
    return parsePrincipal(member).key;
  } catch (e) {
    if (e instanceof IamValidationError) return member;
    throw e;
  }
}

function checkSingleToken(raw: string, reject: Reject): void {
  if (typeof raw !== 'string') reject(`a principal must be a string; ${EXPECTED_FORMS}`);
  if (raw.length === 0) reject(`a principal is required; ${EXPECTED_FORMS}`);
  if (/[,;]/.test(raw)) reject('looks like a list; give one principal per entry');
  if (hasWhitespace(raw)) reject('must not contain whitespace; give exactly one principal such as user:alice@example.com');
}

/** Explains a prefix that is missing, misspelt in case, or unknown. */
function rejectUnknownType(typed: string, reject: Reject): never {
  const singleton = SINGLETONS.find((s) => s.toLowerCase() === typed.toLowerCase());
  // An exact match only gets here after `deleted:`, which these never carry.
  if (singleton === typed) return reject(`${singleton} is never reported as deleted; ${EXPECTED_FORMS}`);
  if (singleton) return reject(`write ${singleton} (the name is case-sensitive)`);
  const wrongCase = PRINCIPAL_TYPES.find((t) => typed.toLowerCase().startsWith(t.prefix.toLowerCase()));
  if (wrongCase) {
    return reject(
      `type prefixes are case-sensitive: write ${quote(wrongCase.prefix)}, not ${quote(typed.slice(0, wrongCase.prefix.length))}`,
    );
  }
  const colon = typed.indexOf(':');
  if (colon < 0) {
    const hint = typed.includes('@') ? ` (did you mean ${quote(`user:${typed}`)}?)` : '';
    return reject(`missing type prefix${hint}; ${EXPECTED_FORMS}`);
  }
  return reject(`unknown type prefix ${quote(typed.slice(0, colon + 1))}; ${EXPECTED_FORMS}`);
}

function splitDeleted(typed: string, type: PrincipalType, reject: Reject): { value: string; uid?: string } {
  if (type.deletion === 'never') reject(`${type.prefix} principals are never reported as deleted; ${EXPECTED_FORMS}`);
  const rest = typed.slice(type.prefix.length);
  const at = rest.lastIndexOf(UID_SEPARATOR);
  if (at < 0) {
    if (type.deletion === 'withUid') reject(`expected deleted:${type.prefix}{email}?uid={unique id}`);
    return { value: rest };
  }
  const uid = rest.slice(at + UID_SEPARATOR.length);
  if (!UID_PATTERN.test(uid))
    reject(`the ?uid= of a deleted principal must be letters and digits, e.g. deleted:${type.prefix}{email}?uid=123456789`);
  return { value: rest.slice(0, at), uid };
}

function emailType(prefix: string, kind: PrincipalKind, countsAsGroup: boolean): PrincipalType {
  return { prefix, countsAsGroup, deletion: 'withUid', classify: (value, reject) => ({ kind, comparable: checkEmail(value, reject) }) };
}

function uriType(
  prefix: string,
  kind: PrincipalKind,
  patterns: readonly RegExp[],
  expected: string,
  deletion: PrincipalType['deletion'],
): PrincipalType {
  return {
    prefix,
    countsAsGroup: false,
    deletion,
    classify: (value, reject) => {
      if (!patterns.some((pattern) => pattern.test(value))) reject(expected);
      return { kind, comparable: value };
    },
  };
}

/** Returns the lower-cased email: Google compares them case-insensitively. */
function checkEmail(value: string, reject: Reject): string {
  if (value.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(value)) {
    reject(`not a valid email address; expected name@example.com`);
  }
  return value.toLowerCase();
}

function checkDomain(value: string, reject: Reject): string {
  if (value.length > MAX_DOMAIN_LENGTH || !DOMAIN_PATTERN.test(value)) {
    reject('not a valid domain; expected a domain name such as example.com (no @, no scheme, no path)');
  }
  return value.toLowerCase();
}

function checkKubernetesServiceAccount(value: string, reject: Reject): string {
  if (!KUBERNETES_SERVICE_ACCOUNT_PATTERN.test(value)) {
    reject('not a Kubernetes service account; expected serviceAccount:{project-id}.svc.id.goog[{namespace}/{kubernetes-sa}] in lowercase');
  }
  return value;
}
