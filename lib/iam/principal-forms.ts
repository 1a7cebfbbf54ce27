import { PROJECT_ID_SOURCE } from './resource-name';

/**
 * The shapes of principal values, as regular expressions with the text shown
 * to the user when a value does not match. Kept apart from the parser so the
 * grammar can be read in one place.
 */

/** Local part: RFC 5322 "atext" dot-atoms (no leading, trailing or double dot). */
const EMAIL_LOCAL = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*";
/** A DNS name with at least two labels and an alphabetic top-level domain. */
const DOMAIN = '(?:[A-Za-z0-9](?:[-A-Za-z0-9]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}';

export const EMAIL_PATTERN = new RegExp(`^${EMAIL_LOCAL}@${DOMAIN}$`);
export const DOMAIN_PATTERN = new RegExp(`^${DOMAIN}$`);
/** RFC 5321 caps a forward path at 254 characters; DNS names at 253. */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_DOMAIN_LENGTH = 253;

/** Kubernetes names are DNS labels (namespace) and DNS subdomains (service account). */
const K8S_NAMESPACE = '[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?';
const K8S_SERVICE_ACCOUNT = '[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?';
/** `PROJECT_ID.svc.id.goog[NAMESPACE/KSA]` (GKE Workload Identity). */
export const KUBERNETES_SERVICE_ACCOUNT_PATTERN = new RegExp(
  `^${PROJECT_ID_SOURCE}\\.svc\\.id\\.goog\\[${K8S_NAMESPACE}/${K8S_SERVICE_ACCOUNT}\\]$`,
);

/** Pool IDs are 4–32 lowercase letters, digits and hyphens; GKE's pool is `PROJECT_ID.svc.id.goog`. */
const POOL = `(?:[a-z0-9][-a-z0-9]{2,30}[a-z0-9]|${PROJECT_ID_SOURCE}\\.svc\\.id\\.goog)`;
const PROJECT_NUMBER = '[1-9][0-9]{0,19}';
const WORKFORCE_POOL = `iam\\.googleapis\\.com/locations/global/workforcePools/${POOL}`;
const WORKLOAD_POOL = `iam\\.googleapis\\.com/projects/${PROJECT_NUMBER}/locations/global/workloadIdentityPools/${POOL}`;
/** What may follow a pool in a principal set: a group, an attribute value, everyone, or a GKE selector. */
const POOL_SET_SELECTOR = '(?:group/.+|attribute\\.[A-Za-z0-9_]+/.+|namespace/.+|kubernetes\\.[a-z.]+/.+|\\*)';

/** A value after `principal://`, one pattern per documented identifier. */
export const PRINCIPAL_PATTERNS: readonly RegExp[] = [
  new RegExp(`^${WORKFORCE_POOL}/subject/.+$`),
  new RegExp(`^${WORKLOAD_POOL}/subject/.+$`),
  new RegExp(`^goog/subject/${EMAIL_LOCAL}@${DOMAIN}$`),
];

/** A value after `principalSet://`. */
export const PRINCIPAL_SET_PATTERNS: readonly RegExp[] = [
  new RegExp(`^${WORKFORCE_POOL}/${POOL_SET_SELECTOR}$`),
  new RegExp(`^${WORKLOAD_POOL}/${POOL_SET_SELECTOR}$`),
  new RegExp(`^cloudresourcemanager\\.googleapis\\.com/(?:projects|folders|organizations)/${PROJECT_NUMBER}/type/ServiceAccount$`),
];

export const EXPECTED_PRINCIPAL =
  'expected principal://iam.googleapis.com/locations/global/workforcePools/{pool}/subject/{subject}, ' +
  'principal://iam.googleapis.com/projects/{number}/locations/global/workloadIdentityPools/{pool}/subject/{subject} ' +
  'or principal://goog/subject/{email}';

export const EXPECTED_PRINCIPAL_SET =
  'expected principalSet://iam.googleapis.com/locations/global/workforcePools/{pool}/{group/{id} | attribute.{name}/{value} | *}, ' +
  'principalSet://iam.googleapis.com/projects/{number}/locations/global/workloadIdentityPools/{pool}/{group/{id} | attribute.{name}/{value} | *} ' +
  'or principalSet://cloudresourcemanager.googleapis.com/projects/{number}/type/ServiceAccount';
