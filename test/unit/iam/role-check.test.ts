/**
 * Roles against Google's catalogue (lib/iam/role-check.ts over role-table.ts):
 * real roles of each service grantable where Google takes them, basic roles
 * everywhere, near misses named, custom roles and the roles a user lists in
 * CDKTF_GOOGLE_IAM_EXTRA_ROLES taken as they are.
 */
import * as path from 'path';
import type { Grant } from '../../../lib/iam/grant';
import { checkGrantRoles, checkRole, isRoleAccepted, parseExtraRoles } from '../../../lib/iam/role-check';
import { grantability, rolesGrantableOn, type RoleTarget } from '../../../lib/iam/role-grantability';
import { prefixesOf } from '../../../lib/iam/role-permissions';
import { predefinedRole } from '../../../lib/iam/role-table';
import { genericRoleTarget, typedRoleTarget } from '../../../lib/resource-types/role-target';
import { typedRow } from '../../../lib/resource-types/typed-name-format';
import { validationError } from './expect-error';

const AP = typedRoleTarget(typedRow('AuthorizationPolicy'));
const AUTHZ = typedRoleTarget(typedRow('NetworkSecurityAuthzPolicy'));
const AG = typedRoleTarget(typedRow('AddressGroup'));
const MJ = typedRoleTarget(typedRow('MigrationJob'));
const generic = (service: string, name: string, version = 'v1'): RoleTarget => genericRoleTarget(service, version, name)!;
const SECRET = generic('secretmanager', 'projects/p/secrets/s');

/** The message of the error checkRole throws for `role` on `target`. */
const refusal = (role: string, target: RoleTarget | undefined) => validationError(() => checkRole(role, target, 'role')).message;

describe("the issue's roles, from Google's catalogue", () => {
  test.each([
    ['authorization policies', AP],
    ['authz policies', AUTHZ],
    ['address groups', AG],
  ])('on %s: the network security, network and security roles', (_label, target) => {
    const names = rolesGrantableOn(target).map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'roles/networksecurity.admin',
        'roles/networksecurity.editor',
        'roles/networksecurity.viewer',
        'roles/compute.networkAdmin',
        'roles/compute.networkUser',
        'roles/compute.networkViewer',
        'roles/iam.securityAdmin',
        'roles/iam.securityReviewer',
      ]),
    );
    expect(names).not.toContain('roles/datamigration.admin');
  });

  test('on migration jobs: the Database Migration Service roles and the security reviewer, nothing of network security', () => {
    const names = rolesGrantableOn(MJ).map((r) => r.name);
    expect(names).toEqual(
      expect.arrayContaining(['roles/datamigration.admin', 'roles/datamigration.editor', 'roles/iam.securityReviewer']),
    );
    for (const role of ['roles/networksecurity.viewer', 'roles/compute.networkViewer', 'roles/secretmanager.secretAccessor']) {
      expect(grantability(role, MJ)).toBe('not grantable');
    }
  });

  test('the roles this project once showed do not exist', () => {
    for (const role of [
      'roles/networksecurity.authorizationPolicyViewer',
      'roles/networksecurity.authorizationPolicyAdmin',
      'roles/networksecurity.addressGroupUser',
      'roles/datamigration.viewer',
    ]) {
      expect(predefinedRole(role)).toBeUndefined();
    }
  });
});

describe('a sample of real roles, each grantable where Google takes it', () => {
  test.each<[string, string, string, string]>([
    // [role, service, a resource name, API version]: the grant users make most, per service.
    ['roles/secretmanager.secretAccessor', 'secretmanager', 'projects/p/secrets/s', 'v1'],
    ['roles/secretmanager.secretVersionAdder', 'secretmanager', 'projects/p/locations/us-east1/secrets/s', 'v1'],
    ['roles/pubsub.publisher', 'pubsub', 'projects/p/topics/t', 'v1'],
    ['roles/pubsub.subscriber', 'pubsub', 'projects/p/subscriptions/s', 'v1'],
    ['roles/iam.serviceAccountUser', 'iam', 'projects/p/serviceAccounts/sa@p.iam.gserviceaccount.com', 'v1'],
    ['roles/iam.serviceAccountTokenCreator', 'iam', 'projects/p/serviceAccounts/sa@p.iam.gserviceaccount.com', 'v1'],
    ['roles/iam.workloadIdentityUser', 'iam', 'projects/p/serviceAccounts/sa@p.iam.gserviceaccount.com', 'v1'],
    ['roles/run.invoker', 'run', 'projects/p/locations/us-central1/services/api', 'v2'],
    ['roles/run.invoker', 'run', 'projects/p/locations/us-central1/jobs/nightly', 'v2'],
    ['roles/cloudfunctions.invoker', 'cloudfunctions', 'projects/p/locations/us-central1/functions/f', 'v1'],
    ['roles/cloudkms.cryptoKeyEncrypterDecrypter', 'cloudkms', 'projects/p/locations/global/keyRings/r/cryptoKeys/k', 'v1'],
    ['roles/cloudkms.cryptoKeyEncrypterDecrypter', 'cloudkms', 'projects/p/locations/global/keyRings/r', 'v1'],
    ['roles/artifactregistry.reader', 'artifactregistry', 'projects/p/locations/us/repositories/r', 'v1'],
    ['roles/spanner.databaseReader', 'spanner', 'projects/p/instances/i/databases/d', 'v1'],
    ['roles/cloudtasks.enqueuer', 'cloudtasks', 'projects/p/locations/us-central1/queues/q', 'v2'],
    ['roles/aiplatform.user', 'aiplatform', 'projects/p/locations/us-central1/models/m', 'v1'],
  ])('%s on %s %s', (role, service, name, version) => {
    const target = generic(service, name, version);
    expect(target).toBeDefined();
    expect(grantability(role, target)).toBe('grantable');
    expect(checkRole(role, target, 'role')).toEqual([]);
  });

  test('a role of one service is refused on another: "not supported for this resource"', () => {
    expect(grantability('roles/pubsub.publisher', SECRET)).toBe('not grantable');
    expect(grantability('roles/secretmanager.secretAccessor', generic('pubsub', 'projects/p/topics/t'))).toBe('not grantable');
    expect(grantability('roles/pubsub.publisher', generic('pubsub', 'projects/p/subscriptions/s'))).toBe('not grantable');
  });

  test("what lies under a resource counts: a secret takes the accessor of its versions, a key ring its keys' users", () => {
    expect(prefixesOf(predefinedRole('roles/secretmanager.secretAccessor')!)).toEqual([
      'resourcemanager.projects',
      'secretmanager.versions',
    ]);
    expect(grantability('roles/secretmanager.secretAccessor', SECRET)).toBe('grantable');
    const keyRing = generic('cloudkms', 'projects/p/locations/global/keyRings/r');
    expect(prefixesOf(predefinedRole('roles/cloudkms.cryptoKeyEncrypterDecrypter')!)).not.toContain('cloudkms.keyRings');
    expect(grantability('roles/cloudkms.cryptoKeyEncrypterDecrypter', keyRing)).toBe('grantable');
  });

  test('a permission the catalogue cannot place is not held against a role (Data Catalog categories on a taxonomy)', () => {
    const taxonomy = generic('datacatalog', 'projects/p/locations/us/taxonomies/t');
    expect(grantability('roles/datacatalog.categoryFineGrainedReader', taxonomy)).toBe('perhaps');
    expect(checkRole('roles/datacatalog.categoryFineGrainedReader', taxonomy, 'role')).toEqual([]);
  });

  test('projects, folders and organizations take every role; a collection the catalogue cannot name is not checked', () => {
    const project = generic('cloudresourcemanager', 'projects/p', 'v3');
    for (const role of ['roles/datamigration.admin', 'roles/pubsub.publisher', 'roles/networksecurity.viewer']) {
      expect(grantability(role, project)).toBe('unchecked');
      expect(checkRole(role, project, 'role')).toEqual([]);
    }
    expect(grantability('roles/pubsub.publisher', { service: 'widgets', collection: 'gadgets', label: 'a gadget' })).toBe('unchecked');
    expect(grantability('roles/pubsub.publisher', undefined)).toBe('unchecked');
  });
});

describe('basic roles', () => {
  test.each(['roles/owner', 'roles/editor', 'roles/viewer'])('%s is real and grantable everywhere, with no warning', (role) => {
    expect(predefinedRole(role)?.stage).toBe('GA');
    for (const target of [AP, AUTHZ, AG, MJ, SECRET]) {
      expect(grantability(role, target)).toBe('grantable');
      expect(checkRole(role, target, 'role')).toEqual([]);
    }
  });

  test('roles/browser is a project-level role: a policy of a secret refuses it', () => {
    expect(predefinedRole('roles/browser')).toBeDefined();
    expect(checkRole('roles/browser', SECRET, 'role')).toEqual([
      expect.objectContaining({
        kind: 'not grantable',
        reason: expect.stringContaining('roles/browser cannot be granted on projects/*/secrets/* (secretmanager)'),
      }),
    ]);
  });
});

describe('near misses: an error that names the nearest real roles', () => {
  test('the role the README once granted: the nearest roles that can be granted on an authorization policy', () => {
    expect(refusal('roles/networksecurity.authorizationPolicyViewer', AP)).toBe(
      "role: not one of Google's basic and predefined roles (2,387, as IAM listed them on 2026-08-22); " +
        'the nearest that can be granted on an authorization policy: roles/networksecurity.viewer, roles/networksecurity.editor and roles/networksecurity.admin. ' +
        'A custom role is named projects/{project}/roles/{id} or organizations/{organization}/roles/{id}; ' +
        'a role Google added after 2026-08-22 is accepted once listed in the environment variable CDKTF_GOOGLE_IAM_EXTRA_ROLES ' +
        '(got "roles/networksecurity.authorizationPolicyViewer")',
    );
    expect(refusal('roles/networksecurity.authorizationPolicyViwer', AP)).toContain(
      'the nearest that can be granted on an authorization policy: roles/networksecurity.',
    );
  });

  test.each([
    ['roles/networksecurity.viwer', AP, 'roles/networksecurity.viewer'],
    ['roles/compute.networkViwer', AG, 'roles/compute.networkViewer'],
    ['roles/viwer', MJ, 'roles/viewer'],
    ['roles/secretmanager.secretAcessor', SECRET, 'roles/secretmanager.secretAccessor'],
  ])('a misspelling, %s: did you mean', (role, target, meant) => {
    expect(refusal(role, target)).toContain(`; did you mean ${meant}? A custom role is named`);
  });

  test('a role Google does not have on a migration job: the real ones of its service first', () => {
    expect(refusal('roles/datamigration.viewer', MJ)).toContain(
      'the nearest that can be granted on a migration job: roles/datamigration.editor, roles/datamigration.admin and roles/iam.securityReviewer.',
    );
  });

  test('where the resource type is not known, the nearest real roles of any type', () => {
    expect(refusal('roles/networksecurity.viwer', undefined)).toContain('did you mean roles/networksecurity.viewer?');
    expect(refusal('roles/datamigration.viewer', undefined)).toContain('the nearest real roles: roles/datamigration.');
  });

  test("service agents' roles are never suggested", () => {
    expect(refusal('roles/run.serviceAgen', generic('run', 'projects/p/locations/l/services/s', 'v2'))).not.toContain('serviceAgent');
  });
});

describe('warnings: a real role Google takes elsewhere, or a deprecated one', () => {
  test('not grantable on the type: says what Google answers, and names roles that can', () => {
    expect(checkRole('roles/datamigration.admin', AP, 'bindings[1].role')).toEqual([
      {
        kind: 'not grantable',
        field: 'bindings[1].role',
        role: 'roles/datamigration.admin',
        reason:
          'roles/datamigration.admin cannot be granted on an authorization policy: it holds no permission on networksecurity.authorizationPolicies or on what lies under them, ' +
          'and Google answers setIamPolicy with 400 INVALID_ARGUMENT "Role roles/datamigration.admin is not supported for this resource." ' +
          'Roles that can be granted there include roles/networksecurity.admin, roles/networksecurity.editor and roles/networksecurity.viewer',
      },
    ]);
  });

  test('deprecated: a warning naming current roles of its service where there are', () => {
    expect(predefinedRole('roles/servicebroker.admin')?.stage).toBe('DEPRECATED');
    expect(checkRole('roles/servicebroker.admin', undefined, 'role')).toEqual([
      {
        kind: 'deprecated',
        field: 'role',
        role: 'roles/servicebroker.admin',
        reason:
          'Google lists roles/servicebroker.admin as DEPRECATED (roles as IAM listed them on 2026-08-22): it may stop working; grant a current role instead',
      },
    ]);
  });
});

describe('what passes as it is', () => {
  test.each(['projects/my-project/roles/dbaOnCall', 'organizations/123456789012/roles/auditor'])('the custom role %s', (role) => {
    expect(checkRole(role, AP, 'role')).toEqual([]);
    expect(isRoleAccepted(role, AP)).toBe(true);
  });

  test('a role CDKTF_GOOGLE_IAM_EXTRA_ROLES lists (one Google added after the table), commas or spaces between them', () => {
    const extraRoles = parseExtraRoles(' roles/widgets.admin,roles/widgets.viewer\nroles/gadgets.user ');
    expect([...extraRoles]).toEqual(['roles/widgets.admin', 'roles/widgets.viewer', 'roles/gadgets.user']);
    expect(checkRole('roles/widgets.admin', AP, 'role', { extraRoles })).toEqual([]);
    expect(isRoleAccepted('roles/widgets.admin', AP, { extraRoles })).toBe(true);
    expect(() => checkRole('roles/widgets.admin', AP, 'role')).toThrow(/not one of Google's basic and predefined roles/);
    expect(parseExtraRoles(undefined).size).toBe(0);
  });

  test("a value that is not a well-formed roles/… is the shape check's, not this one's", () => {
    for (const role of ['roles/', 'roles/network security.viewer', 'viewer', 42]) expect(checkRole(role, AP, 'role')).toEqual([]);
  });
});

describe("a grant's roles, every kind", () => {
  const resource = { service: 'networksecurity', apiVersion: 'v1', name: 'projects/p/locations/global/authorizationPolicies/ap' };
  const member: Grant = { mode: 'member', resource, role: 'roles/networksecurity.viewer', member: 'user:a@example.com' };

  test('member and binding: their role; policy: each binding, the first unknown one refused', () => {
    expect(checkGrantRoles(member, AP)).toEqual([]);
    expect(checkGrantRoles({ ...member, role: 'roles/datamigration.admin' }, AP)).toEqual([
      expect.objectContaining({ kind: 'not grantable', field: 'role' }),
    ]);
    const binding: Grant = { mode: 'binding', resource, role: 'roles/networksecurity.viwer', members: ['user:a@example.com'] };
    expect(validationError(() => checkGrantRoles(binding, AP)).field).toBe('role');
    const policy: Grant = {
      mode: 'policy',
      resource,
      bindings: [
        { role: 'roles/networksecurity.admin', members: ['user:a@example.com'] },
        { role: 'roles/datamigration.admin', members: ['user:a@example.com'] },
        { role: 'roles/datamigration.viewer', members: ['user:a@example.com'] },
      ],
    };
    expect(validationError(() => checkGrantRoles(policy, AP))).toMatchObject({
      field: 'bindings[2].role',
      value: 'roles/datamigration.viewer',
    });
    expect(checkGrantRoles({ ...policy, bindings: policy.bindings.slice(0, 2) }, AP)).toEqual([
      expect.objectContaining({ kind: 'not grantable', field: 'bindings[1].role', role: 'roles/datamigration.admin' }),
    ]);
  });

  test('values not known yet (Terraform tokens) are skipped', () => {
    const unknown = (value: unknown) => value !== 'roles/datamigration.viewer';
    expect(checkGrantRoles({ ...member, role: 'roles/datamigration.viewer' }, AP, unknown)).toEqual([]);
    const policy: Grant = { mode: 'policy', resource, bindings: 'a token' as never };
    expect(checkGrantRoles(policy, AP, (value) => value !== 'a token')).toEqual([]);
  });
});

describe("the emulator's rule: what Google's setIamPolicy takes", () => {
  test('a real role grantable on the type, a custom role; not a role Google does not list, nor one it takes elsewhere', () => {
    expect(isRoleAccepted('roles/networksecurity.viewer', AP)).toBe(true);
    expect(isRoleAccepted('projects/p/roles/custom', AP)).toBe(true);
    expect(isRoleAccepted('roles/networksecurity.viwer', AP)).toBe(false);
    expect(isRoleAccepted('roles/datamigration.admin', AP)).toBe(false);
    expect(
      isRoleAccepted('roles/datacatalog.categoryFineGrainedReader', generic('datacatalog', 'projects/p/locations/us/taxonomies/t')),
    ).toBe(true);
  });
});

describe('what the security checks read: capabilities', () => {
  test.each<[string, string[]]>([
    ['roles/iam.serviceAccountUser', ['actAsServiceAccounts']],
    ['roles/iam.serviceAccountTokenCreator', ['mintServiceAccountTokens']],
    ['roles/iam.serviceAccountKeyAdmin', ['createServiceAccountKeys']],
    ['roles/resourcemanager.projectIamAdmin', ['setIamPolicy']],
    ['roles/owner', ['actAsServiceAccounts', 'createServiceAccountKeys', 'setIamPolicy']],
    ['roles/editor', ['actAsServiceAccounts', 'createServiceAccountKeys']],
    ['roles/viewer', []],
    ['roles/networksecurity.admin', ['setIamPolicy']],
  ])('%s', (role, capabilities) => {
    expect(predefinedRole(role)?.capabilities).toEqual(capabilities);
  });
});

describe('loading', () => {
  const VENDORED = path.join(__dirname, '..', '..', '..', 'dist', 'vendor', 'levenshtein.js');

  test('without dist/vendor/levenshtein.js (a checkout not built), the package measures the same distances', () => {
    let fromSource: typeof import('../../../lib/iam/edit-distance') | undefined;
    jest.isolateModules(() => {
      jest.doMock(
        VENDORED,
        () => {
          throw Object.assign(new Error(`Cannot find module '${VENDORED}'`), { code: 'MODULE_NOT_FOUND' });
        },
        { virtual: true },
      );
      try {
        fromSource = require('../../../lib/iam/edit-distance');
        expect(fromSource!.editDistance('roles/networksecurity.viwer', 'roles/networksecurity.viewer')).toBe(1);
      } finally {
        jest.dontMock(VENDORED);
      }
    });
    expect(fromSource!.editDistance('kitten', 'sitting')).toBe(3);
  });
});
