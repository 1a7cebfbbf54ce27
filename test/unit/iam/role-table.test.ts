/**
 * Google's role catalogue (lib/iam/roles.generated.json) is what scripts/generate-roles.js
 * makes of data/google-roles.json.gz, and the library reads back what the
 * generator wrote: a small dump in, the table out, decoded.
 */
import * as fs from 'fs';
import { decodePermissionPrefixes, permissionPrefixes, prefixesOf, type PermissionPrefixData } from '../../../lib/iam/role-permissions';
import { decodeRoleTable, roleTable, type RoleData } from '../../../lib/iam/role-table';

interface Dump {
  readonly source: string;
  readonly roles: Record<string, { readonly title: string; readonly stage: string; readonly permissions: readonly string[] }>;
}

/** The generator (a plain Node script: only it and this test load googleapis). */
const generator = require('../../../scripts/generate-roles.js') as {
  generateFromRepository(): { text: string; prefixesText: string; counts: Record<string, unknown> };
  sameFile(text: string, want: string): boolean;
  unpackedFile(text: string): unknown;
  generateRoleTable(input: {
    dump: Dump;
    collections: readonly { service: string; template: string }[];
    discovery: ReadonlyMap<string, readonly string[]>;
    placements?: Record<string, readonly string[]>;
  }): { text: string; prefixesText: string; counts: Record<string, unknown> };
  readDump(file?: string): Dump;
  PLACEMENTS: Record<string, readonly string[]>;
  TABLE_FILE: string;
  PREFIXES_FILE: string;
};

/** A data file's table, as the library loads it. */
const load = <T>(text: string) => generator.unpackedFile(text) as T;

describe('the committed table', () => {
  const generated = generator.generateFromRepository();

  test('is exactly what the generator makes of the committed dump and the IAM table (npm run generate:roles)', () => {
    // The same fields and tables (brotli's bytes may differ between Node.js versions).
    expect(generator.sameFile(fs.readFileSync(generator.TABLE_FILE, 'utf8'), generated.text)).toBe(true);
    expect(generator.sameFile(fs.readFileSync(generator.PREFIXES_FILE, 'utf8'), generated.prefixesText)).toBe(true);
    expect(generator.sameFile(generated.text, generated.prefixesText)).toBe(false);
  });

  test("holds all of Google's 2,387 basic and predefined roles of 2026-08-22, in under 60 KB (140 KB uncompressed)", () => {
    expect(generated.counts).toMatchObject({
      roles: 2_387,
      stages: { GA: 1_754, BETA: 630, DEPRECATED: 3 },
      permissions: 13_715,
      prefixes: 2_843,
      resourceTypes: 214,
    });
    expect(generated.counts.bytes).toBeLessThan(60_000);
    expect(generated.counts.uncompressedBytes).toBeLessThan(140_000);
    expect(JSON.parse(fs.readFileSync(generator.TABLE_FILE, 'utf8'))).toMatchObject({ date: '2026-08-22', roles: 2_387 });
    const { date, source, roles } = roleTable();
    expect(date).toBe('2026-08-22');
    expect(source).toContain('darkbitio/gcp-iam-role-permissions@8ab2a6ff');
    expect(roles.size).toBe(2_387);
  });

  test('decodes to what the dump says, role by role', () => {
    const dump = generator.readDump();
    const prefixOf = (permission: string) => permission.slice(0, permission.lastIndexOf('.'));
    for (const [name, role] of Object.entries(dump.roles)) {
      const decoded = roleTable().roles.get(name);
      expect(decoded?.stage).toBe(role.stage);
      expect(prefixesOf(decoded!)).toEqual([...new Set(role.permissions.map(prefixOf))].sort());
    }
  });

  test("each placement of a permission the generator adds still names a type and a prefix of Google's", () => {
    const table = roleTable();
    for (const [type, prefixes] of Object.entries(generator.PLACEMENTS)) {
      expect(table.resourceTypes.has(type.toLowerCase())).toBe(true);
      for (const prefix of prefixes) expect(permissionPrefixes()).toContain(prefix);
    }
  });
});

describe('the generator, on a small dump', () => {
  const dump: Dump = {
    source: 'a test dump (fetched from Google IAM roles.list, 2030-01-31)',
    roles: {
      'roles/owner': {
        title: 'Owner',
        stage: 'GA',
        permissions: ['secretmanager.secrets.setIamPolicy', 'secretmanager.versions.access', 'widgets.gadgets.get'],
      },
      'roles/secretmanager.secretAccessor': { title: 'Accessor', stage: 'GA', permissions: ['secretmanager.versions.access'] },
      'roles/secretmanager.admin': {
        title: 'Admin',
        stage: 'GA',
        permissions: ['secretmanager.locations.list', 'secretmanager.secrets.get', 'secretmanager.secrets.setIamPolicy'],
      },
      'roles/secretmanager.locationViewer': { title: 'Locations', stage: 'BETA', permissions: ['secretmanager.locations.list'] },
      'roles/secretmanager.oddity': { title: 'Oddity', stage: 'ALPHA', permissions: ['secretmanager.hsmKeys.use'] },
      'roles/iam.serviceAccountTokenCreator': {
        title: 'Token Creator',
        stage: 'GA',
        permissions: ['iam.serviceAccounts.getAccessToken', 'iam.serviceAccounts.signJwt'],
      },
      'roles/iam.serviceAccountUser': { title: 'User', stage: 'DEPRECATED', permissions: ['iam.serviceAccounts.actAs'] },
    },
  };
  const collections = [
    { service: 'secretmanager', template: 'projects/*/secrets/*' },
    { service: 'secretmanager', template: 'projects/*/locations/*/secrets/*' },
    { service: 'iam', template: 'projects/*/serviceAccounts/*' },
    { service: 'widgets', template: 'projects/*/widgets/*' },
  ];
  const discovery = new Map([
    ['secretmanager', ['projects', 'projects/locations', 'projects/locations/secrets', 'projects/secrets', 'projects/secrets/versions']],
    ['iam', ['projects', 'projects/serviceaccounts', 'projects/serviceaccounts/keys']],
  ]);
  const { text, prefixesText, counts } = generator.generateRoleTable({ dump, collections, discovery, placements: {} });
  const table = decodeRoleTable(load<RoleData>(text));
  const prefixes = decodePermissionPrefixes(load<PermissionPrefixData>(prefixesText));
  const role = (name: string) => table.roles.get(name)!;

  test("states the dump's date and source", () => {
    expect(JSON.parse(text)).toMatchObject({ source: dump.source, date: '2030-01-31', roles: 7 });
    expect(load<RoleData>(text).date).toBe('2030-01-31');
    expect(table.source).toBe(dump.source);
    expect(counts).toMatchObject({ roles: 7, stages: { ALPHA: 1, BETA: 1, DEPRECATED: 1, GA: 4 }, resourceTypes: 2 });
  });

  test('every role with its stage, its capabilities and the prefixes its permissions have', () => {
    expect([...table.roles.keys()].sort()).toEqual(Object.keys(dump.roles).sort());
    expect(role('roles/secretmanager.oddity').stage).toBe('ALPHA');
    expect(role('roles/iam.serviceAccountUser')).toMatchObject({ stage: 'DEPRECATED', capabilities: ['actAsServiceAccounts'] });
    expect(role('roles/iam.serviceAccountTokenCreator').capabilities).toEqual(['mintServiceAccountTokens']);
    expect(role('roles/owner').capabilities).toEqual(['setIamPolicy']);
    expect(role('roles/secretmanager.secretAccessor').capabilities).toEqual([]);
    expect(prefixesOf(role('roles/owner'), prefixes)).toEqual(['secretmanager.secrets', 'secretmanager.versions', 'widgets.gadgets']);
    expect(prefixesOf(role('roles/secretmanager.admin'), prefixes)).toEqual(['secretmanager.locations', 'secretmanager.secrets']);
  });

  test("a collection's type: its own prefix and Discovery's below it for sure; the service's unplaced ones perhaps; no own prefix, no type", () => {
    const secrets = table.resourceTypes.get('secretmanager secrets')!;
    const names = (numbers: ReadonlySet<number>) => [...numbers].map((n) => prefixes[n]).sort();
    expect(names(secrets.sure)).toEqual(['secretmanager.secrets', 'secretmanager.versions']);
    // hsmKeys: no Discovery collection of that name, so the data cannot tell; locations hold every type.
    expect(names(secrets.maybe)).toEqual(['secretmanager.hsmKeys']);
    expect(table.resourceTypes.has('widgets widgets')).toBe(false);
    expect(names(table.resourceTypes.get('iam serviceaccounts')!.sure)).toEqual(['iam.serviceAccounts']);
  });

  test('refuses a dump whose source has no date, or a role name Google would not give', () => {
    expect(() => generator.generateRoleTable({ dump: { ...dump, source: 'undated' }, collections, discovery })).toThrow(
      /does not say when Google listed the roles/,
    );
    const odd = { ...dump, roles: { ...dump.roles, 'roles/a b': dump.roles['roles/owner'] } };
    expect(() => generator.generateRoleTable({ dump: odd, collections, discovery })).toThrow(/not a predefined role name: roles\/a b/);
  });
});
