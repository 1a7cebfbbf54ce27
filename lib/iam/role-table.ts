import { unpackTable, type PackedTable } from './packed-table';

/**
 * Google's catalogue of basic and predefined roles, read from
 * roles.generated.json (scripts/generate-roles.js, `npm run generate:roles`) on
 * first use: requiring the library costs nothing until a role is checked. Only
 * this file knows the table's format.
 */

/**
 * The table of roles.generated.json (`npm run generate:roles -- --print` shows it). Its numbers are written in `digits`: a digit 0-31 ends a
 * number, 32-63 is a digit 0-31 with more to come (base 32, most significant
 * first); a set of prefix numbers is written as runs of consecutive numbers,
 * each two numbers: the gap since the previous run's last (from -1), and the
 * run's length less one.
 */
export interface RoleData {
  /** Where the catalogue comes from: Google IAM's `roles.list`, as published on that day. */
  readonly source: string;
  /** The day Google listed the roles: a role Google added since is not here. */
  readonly date: string;
  /** The launch stages; a role's stage is its place in this list. */
  readonly stages: readonly string[];
  /** What a role can do beyond its resource, a bit each (1, 2, 4, ...): its name, and the permissions that give it (`*.verb`: any collection's). */
  readonly capabilities: ReadonlyArray<readonly [string, readonly string[]]>;
  readonly digits: string;
  /**
   * Every role, one service a line: `service. role role ...` (the basic roles, which name no service, first,
   * after a space), a role being `id,` then its stage's place (a digit), its capability bits (a digit) and
   * the set of prefixes its permissions have (numbers of permission-prefixes.generated.json, role-permissions.ts).
   */
  readonly roles: readonly string[];
  /**
   * One resource type a line, `service collection sure maybe`: the collection is the last literal segment of
   * an IAM-enabled collection's name template; a role holding a `sure` prefix is grantable there, one holding
   * only a `maybe` one perhaps (a prefix the data cannot place), any other is refused by Google.
   */
  readonly resourceTypes: readonly string[];
}

/** A basic or predefined role as Google lists it. */
export interface PredefinedRole {
  /** `roles/networksecurity.viewer` */
  readonly name: string;
  /** Its launch stage: `GA`, `BETA`, `DEPRECATED`, ... */
  readonly stage: string;
  /** What it can do beyond its resource (ROLE_CAPABILITIES' names), e.g. `actAsServiceAccounts`, `setIamPolicy`. */
  readonly capabilities: readonly string[];
}

/** A resource type of the table: the prefix numbers that make a role grantable on it for sure, and perhaps. */
export interface ResourceTypeRow {
  readonly service: string;
  readonly collection: string;
  readonly sure: ReadonlySet<number>;
  readonly maybe: ReadonlySet<number>;
}

interface RoleRow extends PredefinedRole {
  /** Its prefix numbers, still encoded; prefixNumbersOf decodes them once. */
  readonly encodedPrefixes: string;
  /** The table it is a row of. */
  readonly table: DecodedTable;
}

/** The decoded table. */
export interface RoleTable {
  readonly source: string;
  /** The day Google listed the roles, `2026-08-22`. */
  readonly date: string;
  readonly roles: ReadonlyMap<string, PredefinedRole>;
  /** By `service collection` in lower case. */
  readonly resourceTypes: ReadonlyMap<string, ResourceTypeRow>;
}

let catalogue: DecodedTable | undefined;
const heldPrefixes = new WeakMap<PredefinedRole, ReadonlySet<number>>();

/** The catalogue, decoded on the first call. */
export function roleTable(): RoleTable {
  catalogue ??= decodeRoleTable(loadData());
  return catalogue;
}

/** The role, or undefined when Google lists no basic or predefined role of that name. */
export function predefinedRole(name: string): PredefinedRole | undefined {
  return roleTable().roles.get(name);
}

/** The numbers of the permission prefixes `role` holds (their names: role-permissions.ts). */
export function prefixNumbersOf(role: PredefinedRole): ReadonlySet<number> {
  let held = heldPrefixes.get(role);
  if (!held) {
    const row = role as RoleRow;
    held = new Set(decodeRuns(row.encodedPrefixes, row.table.digits));
    heldPrefixes.set(role, held);
  }
  return held;
}

/** The resource type of `service` whose collection (a name template's last literal segment) is `collection`, if the table has it. */
export function resourceTypeRow(service: string, collection: string): ResourceTypeRow | undefined {
  return roleTable().resourceTypes.get(`${service} ${collection}`.toLowerCase());
}

/* eslint-disable @typescript-eslint/no-require-imports */
function loadData(): RoleData {
  return unpackTable<RoleData>(require('./roles.generated.json') as PackedTable);
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** A decoded table, with the digits its numbers are written in. */
export type DecodedTable = RoleTable & { readonly digits: string };

/** The table `data` holds; exported for the generator's test, which decodes a table it made. */
export function decodeRoleTable(data: RoleData): DecodedTable {
  const { digits } = data;
  const roles = new Map<string, RoleRow>();
  const resourceTypes = new Map<string, ResourceTypeRow>();
  const table: DecodedTable = { source: data.source, date: data.date, roles, resourceTypes, digits };
  for (const line of data.roles) {
    const [service, ...entries] = line.split(' ');
    for (const entry of entries) {
      const comma = entry.indexOf(',');
      const name = `roles/${service}${entry.slice(0, comma)}`;
      const bits = digits.indexOf(entry[comma + 2]);
      roles.set(name, {
        name,
        stage: data.stages[digits.indexOf(entry[comma + 1])],
        capabilities: data.capabilities.filter((_, bit) => (bits & (1 << bit)) !== 0).map(([capability]) => capability),
        encodedPrefixes: entry.slice(comma + 3),
        table,
      });
    }
  }
  for (const line of data.resourceTypes) {
    const [service, collection, sure, maybe = ''] = line.split(' ');
    resourceTypes.set(`${service} ${collection}`.toLowerCase(), {
      service,
      collection,
      sure: new Set(decodeRuns(sure, digits)),
      maybe: new Set(decodeRuns(maybe, digits)),
    });
  }
  return table;
}

/** The numbers of a set written as runs: pairs of (gap since the previous run's last, from -1; length less one). */
function decodeRuns(text: string, digits: string): number[] {
  const numbers: number[] = [];
  let value = 0;
  for (const char of text) {
    const digit = digits.indexOf(char);
    value = value * 32 + (digit & 31);
    if (digit < 32) {
      numbers.push(value);
      value = 0;
    }
  }
  const out: number[] = [];
  let last = -1;
  for (let i = 0; i + 1 < numbers.length; i += 2) {
    const first = last + 1 + numbers[i];
    for (let n = first; n <= first + numbers[i + 1]; n++) out.push(n);
    last = first + numbers[i + 1];
  }
  return out;
}
