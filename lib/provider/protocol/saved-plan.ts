/**
 * What a saved plan leaves as it is. `terraform apply plan.tfplan` runs the
 * plan's changes in a run of its own: no validation, no plan walk, and no
 * call for a resource the plan does not change. A change may still need to
 * know what those hold (a delete of an old address must not revoke what an
 * unchanged resource also grants), and the only place that tells is the
 * plan file itself, which terraform has read already and leaves in place.
 *
 * A plan file is a zip (terraform's internal/plans/planfile): `tfstate`, the
 * prior state the plan was made from (the refreshed one, state format 4,
 * JSON), and `tfplan`, the changes (protobuf, internal/plans/planproto
 * planfile.proto, format version 3). The objects left as they are: those of
 * the prior state that the plan has no change for (left out by `-target`) or
 * a no-op change.
 */
import * as fs from 'fs';
import { unzipSync } from 'fflate';
import { Root } from 'protobufjs';
import { parseStateObjects } from '../../contract/saved-plan-state';

/** An object of the prior state that the saved plan leaves as it is. */
export interface UnchangedObject {
  /** Its address as terraform writes it (`module.a.googleiam_x.y["k"]`). */
  readonly address: string;
  /** Its deposed key, for an object a create-before-destroy set aside. @default - the instance's current object */
  readonly deposed?: string;
  readonly typeName: string;
  /** Its attributes, as the state file holds them (JSON). */
  readonly attributes: unknown;
  /** Its private data as the state holds it (empty when none). */
  readonly private: Uint8Array;
}

/** The part of planfile.proto read here (field numbers as terraform's; protobufjs skips every other field). */
const PLAN = Root.fromJSON({
  nested: {
    tfplan: {
      nested: {
        Plan: {
          fields: {
            version: { type: 'uint64', id: 1 },
            resource_changes: { rule: 'repeated', type: 'ResourceInstanceChange', id: 3 },
          },
        },
        ResourceInstanceChange: {
          fields: {
            addr: { type: 'string', id: 13 },
            deposed_key: { type: 'string', id: 7 },
            change: { type: 'Change', id: 9 },
          },
        },
        Change: { fields: { action: { type: 'Action', id: 1 } } },
        Action: {
          values: {
            NOOP: 0,
            CREATE: 1,
            READ: 2,
            UPDATE: 3,
            DELETE: 5,
            DELETE_THEN_CREATE: 6,
            CREATE_THEN_DELETE: 7,
            FORGET: 8,
            CREATE_THEN_FORGET: 9,
          },
        },
      },
    },
  },
}).lookupType('tfplan.Plan');

/** The tfplan format this reads (planfile.go `tfplanFormatVersion`). */
const PLAN_FORMAT = 3;

/**
 * The managed objects of `types` that the plan file at `file` leaves as they
 * are. Throws when the file is not a saved plan this can read.
 */
export function unchangedObjects(file: string, types: ReadonlySet<string>): UnchangedObject[] {
  const entries = unzipSync(fs.readFileSync(file), { filter: ({ name }) => name === 'tfplan' || name === 'tfstate' });
  if (!entries.tfplan || !entries.tfstate) throw new Error(`${file} is not a terraform plan file (no tfplan and tfstate in it)`);
  const plan = PLAN.toObject(PLAN.decode(entries.tfplan), { longs: Number, enums: String, defaults: true }) as {
    version: number;
    resource_changes: { addr: string; deposed_key: string; change?: { action: string } }[];
  };
  if (plan.version !== PLAN_FORMAT) throw new Error(`${file}: plan format ${plan.version}, not ${PLAN_FORMAT}`);
  const changed = new Set(
    plan.resource_changes.filter((c) => (c.change?.action ?? 'NOOP') !== 'NOOP').map((c) => objectKey(c.addr, c.deposed_key)),
  );
  const unchanged: UnchangedObject[] = [];
  for (const object of parseStateObjects(Buffer.from(entries.tfstate).toString('utf8'))) {
    if (!types.has(object.typeName) || changed.has(objectKey(object.address, object.deposed))) continue;
    unchanged.push({ ...object, private: object.private ? Buffer.from(object.private, 'base64') : new Uint8Array() });
  }
  return unchanged;
}

const objectKey = (address: string, deposed: string | undefined) => `${address} ${deposed ?? ''}`;
