import { isBasicRole, validateRole } from '../../../lib/iam/role';
import { validationError } from './expect-error';

describe('validateRole', () => {
  test.each([
    'roles/owner',
    'roles/viewer',
    'roles/networksecurity.admin',
    'roles/datamigration.editor',
    'roles/iam.serviceAccountUser',
    'roles/resourcemanager.projects.get_v2',
    'projects/my-project/roles/customAuditor',
    'projects/example.com:my-project/roles/custom.role_1',
    'organizations/123456789012/roles/orgLevel.reader',
  ])('accepts %s', (role) => {
    expect(validateRole(role)).toBe(role);
  });

  test.each<[string, RegExp]>([
    ['', /a role is required/],
    ['owner', /not a role name; expected roles\/\{name\}/],
    ['roles/', /not a role name/],
    ['roles/.admin', /not a role name/],
    ['roles/networksecurity..admin', /not a role name/],
    ['roles/networksecurity.admin ', /not a role name/],
    [' roles/owner', /not a role name/],
    ['Roles/owner', /not a role name/],
    ['roles/owner/extra', /not a role name/],
    ['role/owner', /not a role name/],
    ['projects/my-project/roles/ab', /not a role name/],
    [`projects/my-project/roles/${'a'.repeat(65)}`, /not a role name/],
    ['projects/My-Project/roles/custom', /not a role name/],
    ['projects/my-project/roles/bad-id', /not a role name/],
    ['organizations/acme/roles/custom', /not a role name/],
    ['folders/123/roles/custom', /not a role name/],
    ['roles/owner,roles/editor', /not a role name/],
  ])('rejects %j', (role, reason) => {
    const error = validationError(() => validateRole(role, 'bindings[0].role'));
    expect(error.field).toBe('bindings[0].role');
    expect(error.value).toBe(role);
    expect(error.reason).toMatch(reason);
    expect(error.reason).toMatch(/projects\/\{project\}\/roles\/\{id\} or organizations\/\{organization\}\/roles\/\{id\}/);
  });
});

describe('isBasicRole', () => {
  test.each<[string, boolean]>([
    ['roles/owner', true],
    ['roles/editor', true],
    ['roles/viewer', true],
    ['roles/Owner', false],
    ['roles/browser', false],
    ['roles/networksecurity.admin', false],
    ['projects/p-123456/roles/owner', false],
  ])('%s → %s', (role, basic) => {
    expect(isBasicRole(role)).toBe(basic);
  });
});
