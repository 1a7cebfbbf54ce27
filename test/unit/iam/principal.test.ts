import { validationError } from './expect-error';
import { parseGrantPrincipal, parsePrincipal, samePrincipal, type PrincipalKind } from '../../../lib/iam/principal';

const WORKFORCE = 'iam.googleapis.com/locations/global/workforcePools/my-pool';
const WORKLOAD = 'iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/my-pool';
const GKE_POOL = 'iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/my-project.svc.id.goog';

describe('parsePrincipal accepts every documented form', () => {
  test.each<[string, PrincipalKind, string, string, boolean]>([
    // raw, kind, value, key, countsAsGroup
    ['allUsers', 'allUsers', '', 'allUsers', false],
    ['allAuthenticatedUsers', 'allAuthenticatedUsers', '', 'allAuthenticatedUsers', false],
    ['user:alice@example.com', 'user', 'alice@example.com', 'user:alice@example.com', false],
    ['user:Alice.Smith+iam@Example.COM', 'user', 'Alice.Smith+iam@Example.COM', 'user:alice.smith+iam@example.com', false],
    [
      'serviceAccount:deployer@my-project.iam.gserviceaccount.com',
      'serviceAccount',
      'deployer@my-project.iam.gserviceaccount.com',
      'serviceAccount:deployer@my-project.iam.gserviceaccount.com',
      false,
    ],
    [
      'serviceAccount:Deployer@My-Project.iam.gserviceaccount.com',
      'serviceAccount',
      'Deployer@My-Project.iam.gserviceaccount.com',
      'serviceAccount:deployer@my-project.iam.gserviceaccount.com',
      false,
    ],
    [
      'serviceAccount:my-project.svc.id.goog[default/my-ksa]',
      'kubernetesServiceAccount',
      'my-project.svc.id.goog[default/my-ksa]',
      'serviceAccount:my-project.svc.id.goog[default/my-ksa]',
      false,
    ],
    [
      'serviceAccount:example.com:my-project.svc.id.goog[kube-system/app.reader]',
      'kubernetesServiceAccount',
      'example.com:my-project.svc.id.goog[kube-system/app.reader]',
      'serviceAccount:example.com:my-project.svc.id.goog[kube-system/app.reader]',
      false,
    ],
    ['group:Admins@Example.com', 'group', 'Admins@Example.com', 'group:admins@example.com', true],
    ['domain:Example.com', 'domain', 'Example.com', 'domain:example.com', true],
    ['domain:eu.corp.example.co.uk', 'domain', 'eu.corp.example.co.uk', 'domain:eu.corp.example.co.uk', true],
    [
      `principal://${WORKFORCE}/subject/Alice@Corp`,
      'principal',
      `${WORKFORCE}/subject/Alice@Corp`,
      `principal://${WORKFORCE}/subject/Alice@Corp`,
      false,
    ],
    [
      `principal://${WORKLOAD}/subject/repo:Org/App:ref:refs/heads/main`,
      'principal',
      `${WORKLOAD}/subject/repo:Org/App:ref:refs/heads/main`,
      `principal://${WORKLOAD}/subject/repo:Org/App:ref:refs/heads/main`,
      false,
    ],
    [
      `principal://${GKE_POOL}/subject/ns/prod/sa/api`,
      'principal',
      `${GKE_POOL}/subject/ns/prod/sa/api`,
      `principal://${GKE_POOL}/subject/ns/prod/sa/api`,
      false,
    ],
    [
      'principal://goog/subject/alice@example.com',
      'principal',
      'goog/subject/alice@example.com',
      'principal://goog/subject/alice@example.com',
      false,
    ],
    [
      `principalSet://${WORKFORCE}/group/Engineering`,
      'principalSet',
      `${WORKFORCE}/group/Engineering`,
      `principalSet://${WORKFORCE}/group/Engineering`,
      false,
    ],
    [
      `principalSet://${WORKFORCE}/attribute.department/Sales`,
      'principalSet',
      `${WORKFORCE}/attribute.department/Sales`,
      `principalSet://${WORKFORCE}/attribute.department/Sales`,
      false,
    ],
    [`principalSet://${WORKFORCE}/*`, 'principalSet', `${WORKFORCE}/*`, `principalSet://${WORKFORCE}/*`, false],
    [
      `principalSet://${WORKLOAD}/group/admins`,
      'principalSet',
      `${WORKLOAD}/group/admins`,
      `principalSet://${WORKLOAD}/group/admins`,
      false,
    ],
    [
      `principalSet://${WORKLOAD}/attribute.repository/Org/App`,
      'principalSet',
      `${WORKLOAD}/attribute.repository/Org/App`,
      `principalSet://${WORKLOAD}/attribute.repository/Org/App`,
      false,
    ],
    [`principalSet://${WORKLOAD}/*`, 'principalSet', `${WORKLOAD}/*`, `principalSet://${WORKLOAD}/*`, false],
    [
      `principalSet://${GKE_POOL}/namespace/prod`,
      'principalSet',
      `${GKE_POOL}/namespace/prod`,
      `principalSet://${GKE_POOL}/namespace/prod`,
      false,
    ],
    [
      'principalSet://cloudresourcemanager.googleapis.com/projects/123456789012/type/ServiceAccount',
      'principalSet',
      'cloudresourcemanager.googleapis.com/projects/123456789012/type/ServiceAccount',
      'principalSet://cloudresourcemanager.googleapis.com/projects/123456789012/type/ServiceAccount',
      false,
    ],
    [
      'principalSet://cloudresourcemanager.googleapis.com/organizations/987654321/type/ServiceAccount',
      'principalSet',
      'cloudresourcemanager.googleapis.com/organizations/987654321/type/ServiceAccount',
      'principalSet://cloudresourcemanager.googleapis.com/organizations/987654321/type/ServiceAccount',
      false,
    ],
  ])('%s', (raw, kind, value, key, countsAsGroup) => {
    expect(parsePrincipal(raw)).toEqual({ raw, kind, deleted: false, value, key, countsAsGroup });
    // Every live form may also be granted.
    expect(parseGrantPrincipal(raw).key).toBe(key);
  });
});

describe('deleted principals: read from a policy, never granted', () => {
  test.each<[string, PrincipalKind, string, string | undefined, string, boolean]>([
    // raw, kind, value, uid, key, countsAsGroup
    [
      'deleted:user:Alice@Example.com?uid=123456789',
      'user',
      'Alice@Example.com',
      '123456789',
      'deleted:user:alice@example.com?uid=123456789',
      false,
    ],
    [
      'deleted:serviceAccount:old@my-project.iam.gserviceaccount.com?uid=1122334455',
      'serviceAccount',
      'old@my-project.iam.gserviceaccount.com',
      '1122334455',
      'deleted:serviceAccount:old@my-project.iam.gserviceaccount.com?uid=1122334455',
      false,
    ],
    ['deleted:group:Team@Example.com?uid=42', 'group', 'Team@Example.com', '42', 'deleted:group:team@example.com?uid=42', true],
    [
      `deleted:principal://${WORKFORCE}/subject/Bob`,
      'principal',
      `${WORKFORCE}/subject/Bob`,
      undefined,
      `deleted:principal://${WORKFORCE}/subject/Bob`,
      false,
    ],
  ])('%s', (raw, kind, value, uid, key, countsAsGroup) => {
    const expected = { raw, kind, deleted: true, value, key, countsAsGroup, ...(uid === undefined ? {} : { uid }) };
    expect(parsePrincipal(raw)).toEqual(expected);
    const error = validationError(() => parseGrantPrincipal(raw, 'members[3]'));
    expect(error.field).toBe('members[3]');
    expect(error.value).toBe(raw);
    expect(error.reason).toMatch(/deleted: principal cannot be granted/);
  });
});

describe('parsePrincipal rejects malformed input with a message saying what was expected', () => {
  test.each<[string, string, RegExp]>([
    // description, raw, reason
    ['empty string', '', /a principal is required; expected allUsers/],
    ['only spaces', '   ', /must not contain whitespace/],
    ['leading space', ' user:a@example.com', /must not contain whitespace/],
    ['trailing newline', 'user:a@example.com\n', /must not contain whitespace/],
    ['space inside', 'user:a @example.com', /must not contain whitespace/],
    ['comma list', 'user:a@example.com,user:b@example.com', /looks like a list; give one principal per entry/],
    ['comma-space list', 'user:a@example.com, user:b@example.com', /looks like a list/],
    ['semicolon list', 'user:a@example.com;group:g@example.com', /looks like a list/],
    [
      'missing prefix on an email',
      'alice@example.com',
      /missing type prefix \(did you mean "user:alice@example.com"\?\); expected allUsers/,
    ],
    ['missing prefix, no email', 'alice', /missing type prefix; expected allUsers/],
    ['unknown prefix', 'person:alice@example.com', /unknown type prefix "person:"; expected/],
    ['unknown prefix projectOwner', 'projectOwner:my-project', /unknown type prefix "projectOwner:"/],
    ['capitalised user', 'User:alice@example.com', /type prefixes are case-sensitive: write "user:", not "User:"/],
    ['upper-case group', 'GROUP:g@example.com', /write "group:", not "GROUP:"/],
    ['lower-case serviceaccount', 'serviceaccount:sa@p.iam.gserviceaccount.com', /write "serviceAccount:", not "serviceaccount:"/],
    ['capitalised Domain', 'Domain:example.com', /write "domain:", not "Domain:"/],
    [
      'wrong-case principalset',
      'principalset://cloudresourcemanager.googleapis.com/projects/1/type/ServiceAccount',
      /write "principalSet:\/\/"/,
    ],
    ['wrong-case allusers', 'allusers', /write allUsers \(the name is case-sensitive\)/],
    ['wrong-case AllAuthenticatedUsers', 'AllAuthenticatedUsers', /write allAuthenticatedUsers/],
    ['nothing after prefix', 'user:', /nothing after "user:"/],
    ['email without @', 'user:alice.example.com', /not a valid email address; expected name@example.com/],
    ['email without domain dot', 'user:alice@localhost', /not a valid email address/],
    ['email with two @', 'user:a@b@example.com', /not a valid email address/],
    ['email with double dot', 'group:a..b@example.com', /not a valid email address/],
    ['email with leading dot', 'user:.a@example.com', /not a valid email address/],
    ['email with numeric TLD', 'user:a@example.123', /not a valid email address/],
    ['email label ending in hyphen', 'serviceAccount:sa@bad-.iam.gserviceaccount.com', /not a valid email address/],
    ['over-long email', `user:${'a'.repeat(250)}@example.com`, /not a valid email address/],
    ['domain with @', 'domain:alice@example.com', /not a valid domain; expected a domain name such as example.com/],
    ['domain with scheme', 'domain:https://example.com', /not a valid domain/],
    ['domain with path', 'domain:example.com/x', /not a valid domain/],
    ['single-label domain', 'domain:localhost', /not a valid domain/],
    ['domain label with underscore', 'domain:my_corp.com', /not a valid domain/],
    [
      'k8s SA without brackets',
      'serviceAccount:my-project.svc.id.goog[default]',
      /not a Kubernetes service account; expected serviceAccount:\{project-id\}.svc.id.goog\[\{namespace\}\/\{kubernetes-sa\}\]/,
    ],
    ['k8s SA with upper case', 'serviceAccount:my-project.svc.id.goog[Default/ksa]', /not a Kubernetes service account/],
    ['k8s SA with short project', 'serviceAccount:abc.svc.id.goog[ns/ksa]', /not a Kubernetes service account/],
    ['k8s SA with empty namespace', 'serviceAccount:my-project.svc.id.goog[/ksa]', /not a Kubernetes service account/],
    [
      'principal without subject',
      `principal://${WORKFORCE}`,
      /expected principal:\/\/iam.googleapis.com\/locations\/global\/workforcePools\/\{pool\}\/subject\/\{subject\}/,
    ],
    [
      'principal with project ID instead of number',
      'principal://iam.googleapis.com/projects/my-project/locations/global/workloadIdentityPools/p00l/subject/x',
      /expected principal:\/\//,
    ],
    [
      'principal with non-global location',
      'principal://iam.googleapis.com/locations/us/workforcePools/my-pool/subject/x',
      /expected principal:\/\//,
    ],
    [
      'principal with short pool',
      'principal://iam.googleapis.com/locations/global/workforcePools/abc/subject/x',
      /expected principal:\/\//,
    ],
    ['principal on another host', 'principal://example.com/subject/x', /expected principal:\/\//],
    ['principalSet with empty group', `principalSet://${WORKFORCE}/group/`, /expected principalSet:\/\//],
    ['principalSet with unknown selector', `principalSet://${WORKLOAD}/team/x`, /expected principalSet:\/\//],
    [
      'principalSet ServiceAccount with project ID',
      'principalSet://cloudresourcemanager.googleapis.com/projects/my-project/type/ServiceAccount',
      /expected principalSet:\/\//,
    ],
    [
      'principalSet ServiceAccount wrong case',
      'principalSet://cloudresourcemanager.googleapis.com/projects/123/type/serviceaccount',
      /expected principalSet:\/\//,
    ],
    ['deleted without uid', 'deleted:user:a@example.com', /expected deleted:user:\{email\}\?uid=\{unique id\}/],
    ['deleted with empty uid', 'deleted:group:g@example.com?uid=', /\?uid= of a deleted principal must be letters and digits/],
    ['deleted domain', 'deleted:domain:example.com', /domain: principals are never reported as deleted/],
    ['deleted principalSet', `deleted:principalSet://${WORKFORCE}/*`, /principalSet:\/\/ principals are never reported as deleted/],
    ['deleted allUsers', 'deleted:allUsers', /allUsers is never reported as deleted/],
    ['deleted with bad email', 'deleted:user:nope?uid=1', /not a valid email address/],
  ])('%s', (_description, raw, reason) => {
    const error = validationError(() => parsePrincipal(raw, 'members[0]'));
    expect(error.field).toBe('members[0]');
    expect(error.value).toBe(raw);
    expect(error.reason).toMatch(reason);
    expect(error.message).toBe(`members[0]: ${error.reason} (got ${JSON.stringify(raw)})`);
  });

  test('a non-string is refused rather than crashing', () => {
    const error = validationError(() => parsePrincipal(42 as unknown as string));
    expect(error.field).toBe('member');
    expect(error.reason).toMatch(/a principal must be a string/);
  });
});

describe('samePrincipal', () => {
  test.each<[string, string, boolean]>([
    ['user:alice@example.com', 'user:ALICE@Example.Com', true],
    ['group:Team@Example.com', 'group:team@example.com', true],
    ['domain:EXAMPLE.com', 'domain:example.com', true],
    ['serviceAccount:SA@p.iam.gserviceaccount.com', 'serviceAccount:sa@p.iam.gserviceaccount.com', true],
    ['deleted:user:A@example.com?uid=1', 'deleted:user:a@example.com?uid=1', true],
    ['deleted:user:a@example.com?uid=1', 'deleted:user:a@example.com?uid=2', false],
    ['deleted:user:a@example.com?uid=1', 'user:a@example.com', false],
    ['user:a@example.com', 'group:a@example.com', false],
    ['user:a@example.com', 'user:b@example.com', false],
    [`principal://${WORKFORCE}/subject/Alice`, `principal://${WORKFORCE}/subject/alice`, false],
    [`principalSet://${WORKFORCE}/group/Eng`, `principalSet://${WORKFORCE}/group/Eng`, true],
    ['allUsers', 'allUsers', true],
    ['allUsers', 'allAuthenticatedUsers', false],
    // Unparsable strings fall back to exact text.
    ['somethingNew:X', 'somethingNew:X', true],
    ['somethingNew:X', 'somethingNew:x', false],
    ['User:a@example.com', 'user:a@example.com', false],
  ])('%s vs %s → %s', (a, b, same) => {
    expect(samePrincipal(a, b)).toBe(same);
    expect(samePrincipal(b, a)).toBe(same);
  });
});
