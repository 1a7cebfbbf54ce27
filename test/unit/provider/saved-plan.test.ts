/**
 * What a saved plan leaves as it is (lib/provider/protocol/saved-plan.ts), from plan files laid out as terraform
 * writes them: a zip of `tfplan` (protobuf, written here field by field with terraform's field numbers from
 * internal/plans/planproto/planfile.proto) and `tfstate` (state format 4). Read from a real terraform plan file in
 * test/integration/provider/overlaps.e2e.test.ts.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { zipSync } from 'fflate';
import { Writer } from 'protobufjs';
import { unchangedObjects } from '../../../lib/provider/protocol/saved-plan';

const TYPES = new Set(['googleiam_iam_member', 'googleiam_iam_binding']);
const ACTION = { noop: 0, create: 1, update: 3, delete: 5, deleteThenCreate: 6 } as const;

interface PlannedChange {
  readonly addr: string;
  readonly action: number;
  readonly deposed?: string;
}

/** tfplan: version (1), then each resource_changes (3) entry: addr (13), deposed_key (7), change (9) { action (1) }. */
function tfplan(changes: readonly PlannedChange[], version = 3): Uint8Array {
  const plan = Writer.create()
    .uint32((1 << 3) | 0)
    .uint64(version);
  for (const change of changes) {
    const inner = Writer.create();
    inner.uint32((13 << 3) | 2).string(change.addr);
    if (change.deposed) inner.uint32((7 << 3) | 2).string(change.deposed);
    inner.uint32((8 << 3) | 2).string('provider["registry.terraform.io/cdktf-google-iam/googleiam"]');
    const action = Writer.create();
    if (change.action !== 0) action.uint32((1 << 3) | 0).int32(change.action);
    inner.uint32((9 << 3) | 2).bytes(action.finish());
    plan.uint32((3 << 3) | 2).bytes(inner.finish());
  }
  plan.uint32((14 << 3) | 2).string('1.11.4');
  return plan.finish();
}

const member = (role: string) => ({ name: 'projects/p', role, member: 'user:a@example.com', condition: null });

const STATE = {
  version: 4,
  terraform_version: '1.11.4',
  resources: [
    { mode: 'managed', type: 'googleiam_iam_member', name: 'kept', instances: [{ attributes: member('roles/viewer'), private: 'e30=' }] },
    { mode: 'managed', type: 'googleiam_iam_member', name: 'gone', instances: [{ attributes: member('roles/editor') }] },
    {
      module: 'module.team["x"]',
      mode: 'managed',
      type: 'googleiam_iam_binding',
      name: 'each',
      instances: [
        { index_key: 'a', attributes: { role: 'roles/browser' } },
        { index_key: 'b', attributes: { role: 'roles/owner' } },
      ],
    },
    {
      mode: 'managed',
      type: 'googleiam_iam_member',
      name: 'counted',
      instances: [
        { index_key: 0, attributes: member('roles/iam.securityReviewer') },
        { index_key: 0, deposed: '00000001', attributes: member('roles/logging.viewer') },
      ],
    },
    {
      mode: 'managed',
      type: 'googleiam_iam_member',
      name: 'untargeted',
      instances: [{ attributes: member('roles/storage.objectViewer') }],
    },
    { mode: 'data', type: 'googleiam_iam_member', name: 'read', instances: [{ attributes: member('roles/pubsub.viewer') }] },
    { mode: 'managed', type: 'google_project_iam_member', name: 'theirs', instances: [{ attributes: member('roles/compute.viewer') }] },
  ],
};

const CHANGES: PlannedChange[] = [
  { addr: 'googleiam_iam_member.kept', action: ACTION.noop },
  { addr: 'googleiam_iam_member.gone', action: ACTION.delete },
  { addr: 'module.team["x"].googleiam_iam_binding.each["a"]', action: ACTION.noop },
  { addr: 'module.team["x"].googleiam_iam_binding.each["b"]', action: ACTION.update },
  { addr: 'googleiam_iam_member.counted[0]', action: ACTION.deleteThenCreate },
  { addr: 'googleiam_iam_member.counted[0]', action: ACTION.noop, deposed: '00000001' },
];

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saved-plan-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function planFile(entries: Record<string, Uint8Array>): string {
  const file = path.join(dir, 'plan.tfplan');
  fs.writeFileSync(file, zipSync({ ...entries, 'tfconfig/modules.json': Buffer.from('{}') }));
  return file;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

test('the objects of the provider the plan leaves as they are: no-op changes, and those the plan has no change for (-target)', () => {
  const file = planFile({ tfplan: tfplan(CHANGES), tfstate: json(STATE), 'tfstate-prev': json(STATE) });
  const objects = unchangedObjects(file, TYPES);
  expect(objects.map((o) => [o.address, o.deposed ?? null, (o.attributes as { role: string }).role])).toEqual([
    ['googleiam_iam_member.kept', null, 'roles/viewer'],
    ['module.team["x"].googleiam_iam_binding.each["a"]', null, 'roles/browser'],
    ['googleiam_iam_member.counted[0]', '00000001', 'roles/logging.viewer'],
    ['googleiam_iam_member.untargeted', null, 'roles/storage.objectViewer'],
  ]);
  expect(Buffer.from(objects[0].private).toString()).toBe('{}');
  expect(objects[1].private).toHaveLength(0);
});

test('a destroy plan deletes everything: nothing is left as it is', () => {
  const all = STATE.resources.flatMap((r) =>
    r.instances.map((i) => ({
      addr: `${r.module ? `${r.module}.` : ''}${r.type}.${r.name}${'index_key' in i ? `[${JSON.stringify(i.index_key)}]` : ''}`,
      action: ACTION.delete,
      ...('deposed' in i ? { deposed: i.deposed } : {}),
    })),
  );
  const file = planFile({ tfplan: tfplan(all), tfstate: json(STATE) });
  expect(unchangedObjects(file, TYPES)).toEqual([]);
});

test('what is not a plan file this reads is refused, saying why', () => {
  const state = path.join(dir, 'terraform.tfstate');
  fs.writeFileSync(state, JSON.stringify(STATE));
  expect(() => unchangedObjects(state, TYPES)).toThrow();
  expect(() => unchangedObjects(planFile({ tfstate: json(STATE) }), TYPES)).toThrow('is not a terraform plan file');
  expect(() => unchangedObjects(planFile({ tfplan: tfplan(CHANGES, 2), tfstate: json(STATE) }), TYPES)).toThrow('plan format 2, not 3');
  expect(() => unchangedObjects(planFile({ tfplan: tfplan(CHANGES), tfstate: json({ ...STATE, version: 3 }) }), TYPES)).toThrow(
    'expected 4, the state format of terraform 1.x',
  );
});
