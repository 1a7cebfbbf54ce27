/**
 * The google → generic move table (lib/provider/resources/google-move-table.ts) against the google provider's
 * schemas as published: the @cdktf/provider-google package (its bindings are generated from hashicorp/google's
 * provider schema, one directory per resource type). Each row's `_iam_member`, `_iam_binding` and `_iam_policy`
 * exist there, every attribute its template names is one of theirs, the resource's own required; and the short
 * forms the google provider accepts make the same full name.
 */
import * as fs from 'fs';
import * as path from 'path';
import { GoogleIamApis } from '../../../lib/api/iam-apis';
import {
  GOOGLE_GENERIC_MOVE_ROWS,
  genericMovedResource,
  resourceAttribute,
  rowAttributes,
  type GoogleGenericMoveRow,
} from '../../../lib/provider/resources/google-move-table';

const PACKAGE = path.dirname(require.resolve('@cdktf/provider-google/package.json'));
const KINDS = { member: ['role', 'member', 'condition'], binding: ['role', 'members', 'condition'], policy: ['policy_data'] } as const;

interface PublishedType {
  /** The attributes and blocks its configuration synthesizes (snake_case, as in the provider's schema). */
  readonly attributes: readonly string[];
  /** The required ones. */
  readonly required: readonly string[];
}

/** A resource type of the package: `google_compute_instance_iam_member` in lib/compute-instance-iam-member. */
function published(typeName: string): PublishedType | undefined {
  const dir = path.join(PACKAGE, 'lib', typeName.replace(/^google_/, '').replace(/_/g, '-'));
  if (!fs.existsSync(path.join(dir, 'index.js'))) return undefined;
  const js = fs.readFileSync(path.join(dir, 'index.js'), 'utf8');
  expect(js).toContain(`.tfResourceType = "${typeName}";`);
  const synthesized = /synthesizeAttributes\(\) \{\s*return \{([\s\S]*?)\n\s*\};/.exec(js);
  expect(synthesized).not.toBeNull();
  const attributes = [...synthesized![1].matchAll(/^\s*([a-z0-9_]+):/gm)].map((m) => m[1]);
  const dts = fs.readFileSync(path.join(dir, 'index.d.ts'), 'utf8');
  const config = /export interface \w+Config extends cdktf\.TerraformMetaArguments \{([\s\S]*?)\n\}/.exec(dts);
  expect(config).not.toBeNull();
  const required = [...config![1].matchAll(/^\s*readonly (\w+):/gm)].map((m) => m[1].replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  return { attributes, required };
}

test('the package is the google provider 6.x bindings', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as { cdktf: { provider: object } };
  expect(pkg.cdktf.provider).toEqual({ name: 'registry.terraform.io/hashicorp/google', version: expect.stringMatching(/^6\./) });
});

describe.each(GOOGLE_GENERIC_MOVE_ROWS.map((row) => [row.google, row] as const))('%s', (_google, row: GoogleGenericMoveRow) => {
  test.each(Object.keys(KINDS) as (keyof typeof KINDS)[])(
    '_iam_%s is published with the attributes the template names, its own required',
    (kind) => {
      const type = published(`${row.google}_iam_${kind}`);
      expect(type).toBeDefined();
      for (const attribute of [...rowAttributes(row), ...KINDS[kind]])
        expect([attribute, type!.attributes]).toEqual([attribute, expect.arrayContaining([attribute])]);
      expect(type!.required).toContain(resourceAttribute(row));
    },
  );

  test('its collection is IAM-enabled at the API version, in the generated Discovery table', () => {
    const example = row.name.replace(/\{([a-z_]+)\}/g, (_m, a: string) => `x-${a.replace(/_/g, '-')}`).replace(/\*/g, 'x');
    expect(GoogleIamApis.collection(row.service, row.apiVersion, example)).toMatchObject({ writable: true });
  });
});

test('the short forms the google provider takes: a bucket without b/, a last segment with the attributes around it', () => {
  const row = (google: string) => GOOGLE_GENERIC_MOVE_ROWS.find((r) => r.google === google)!;
  expect(genericMovedResource(row('google_storage_bucket'), { bucket: 'b/logs' })).toEqual({
    service: 'storage',
    apiVersion: 'v1',
    name: 'b/logs',
  });
  expect(genericMovedResource(row('google_storage_bucket'), { bucket: 'logs' })).toMatchObject({ name: 'b/logs' });
  expect(genericMovedResource(row('google_compute_instance'), { instance_name: 'vm', project: 'p-123456', zone: 'us-central1-a' })).toEqual(
    { service: 'compute', apiVersion: 'v1', name: 'projects/p-123456/zones/us-central1-a/instances/vm' },
  );
  expect(genericMovedResource(row('google_bigquery_table'), { table_id: 'orders', dataset_id: 'sales', project: 'p-123456' })).toEqual({
    service: 'bigquery',
    apiVersion: 'v2',
    name: 'projects/p-123456/datasets/sales/tables/orders',
  });
  expect(genericMovedResource(row('google_dns_managed_zone'), { managed_zone: 'example-com', project: 'p-123456' })).toMatchObject({
    name: 'projects/p-123456/managedZones/example-com',
  });
  // What the state lacks, or a name of another collection: refused, saying which.
  expect(genericMovedResource(row('google_compute_instance'), { instance_name: 'vm', project: 'p-123456' })).toMatch(/no zone/);
  expect(genericMovedResource(row('google_storage_bucket'), { bucket: 'projects/_/buckets/logs' })).toMatch(/not a full name b\/\*/);
  expect(
    genericMovedResource(row('google_compute_subnetwork'), { subnetwork: 'projects/p-123456/zones/us-central1-a/instances/vm' }),
  ).toMatch(/not a full name projects\/\*\/regions\/\*\/subnetworks\/\*/);
});

test("docs/hcl.md's move table has every row, with its service and API version, and no other", () => {
  const page = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'hcl.md'), 'utf8');
  const documented = [...page.matchAll(/^\| `(google_[a-z0-9_]+)_iam_\*` \| `([a-z]+)` \| `([a-z0-9]+)` \|/gm)].map(
    ([, google, service, apiVersion]) => ({
      google,
      service,
      apiVersion,
    }),
  );
  expect(documented).toEqual(GOOGLE_GENERIC_MOVE_ROWS.map(({ google, service, apiVersion }) => ({ google, service, apiVersion })));
});
