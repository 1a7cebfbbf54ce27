import type * as RoleData from './roles.generated';

/**
 * Google's catalogue of basic and predefined roles, decoded from
 * roles.generated.ts (scripts/generate-roles.js, `npm run generate:roles`) on
 * first use: requiring the library costs nothing until a role is checked. Only
 * this file knows the table's format.
 */

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
  /** Its prefix numbers, still encoded; `held` decodes them once. */
  readonly encodedPrefixes: string;
}

/** The decoded table. */
export interface RoleTable {
  readonly source: string;
  /** The day Google listed the roles, `2026-08-22`. */
  readonly date: string;
  readonly roles: ReadonlyMap<string, PredefinedRole>;
  /** Every permission prefix (`service.collection`), by number. */
  readonly prefixes: readonly string[];
  /** By `service collection` in lower case. */
  readonly resourceTypes: ReadonlyMap<string, ResourceTypeRow>;
}

let table: DecodedTable | undefined;
const heldPrefixes = new WeakMap<PredefinedRole, ReadonlySet<number>>();

/** The catalogue, decoded on the first call. */
export function roleTable(): RoleTable {
  return decoded();
}

function decoded(): DecodedTable {
  table ??= decode(loadData());
  return table;
}

/** The role, or undefined when Google lists no basic or predefined role of that name. */
export function predefinedRole(name: string): PredefinedRole | undefined {
  return roleTable().roles.get(name);
}

/** The numbers of the permission prefixes `role` holds (see RoleTable.prefixes). */
export function prefixNumbersOf(role: PredefinedRole): ReadonlySet<number> {
  let held = heldPrefixes.get(role);
  if (!held) {
    held = new Set(decodeRuns((role as RoleRow).encodedPrefixes, decoded().digits));
    heldPrefixes.set(role, held);
  }
  return held;
}

/** The permission prefixes `role` holds, e.g. `networksecurity.authorizationPolicies`, in order. */
export function prefixesOf(role: PredefinedRole): string[] {
  const { prefixes } = roleTable();
  return [...prefixNumbersOf(role)].sort((a, b) => a - b).map((n) => prefixes[n]);
}

/** The resource type of `service` whose collection (a name template's last literal segment) is `collection`, if the table has it. */
export function resourceTypeRow(service: string, collection: string): ResourceTypeRow | undefined {
  return roleTable().resourceTypes.get(`${service} ${collection}`.toLowerCase());
}

/* eslint-disable @typescript-eslint/no-require-imports */
function loadData(): typeof RoleData {
  return require('./roles.generated') as typeof RoleData;
}
/* eslint-enable @typescript-eslint/no-require-imports */

type DecodedTable = RoleTable & { readonly digits: string };

function decode(data: typeof RoleData): DecodedTable {
  const digits = data.TABLE_DIGITS;
  const prefixes = data.PERMISSION_PREFIXES.split('\n').flatMap((line) => {
    const [service, ...collections] = line.split(' ');
    return collections.map((collection) => `${service}.${collection}`);
  });
  const roles = new Map<string, RoleRow>();
  for (const line of data.ROLES.split('\n')) {
    const [service, ...entries] = line.split(' ');
    for (const entry of entries) {
      const comma = entry.indexOf(',');
      const name = `roles/${service}${entry.slice(0, comma)}`;
      const bits = digits.indexOf(entry[comma + 2]);
      roles.set(name, {
        name,
        stage: data.ROLE_STAGES[digits.indexOf(entry[comma + 1])],
        capabilities: data.ROLE_CAPABILITIES.filter((_, bit) => (bits & (1 << bit)) !== 0).map(([capability]) => capability),
        encodedPrefixes: entry.slice(comma + 3),
      });
    }
  }
  const resourceTypes = new Map<string, ResourceTypeRow>();
  for (const line of data.RESOURCE_TYPES.split('\n')) {
    const [service, collection, sure, maybe = ''] = line.split(' ');
    resourceTypes.set(`${service} ${collection}`.toLowerCase(), {
      service,
      collection,
      sure: new Set(decodeRuns(sure, digits)),
      maybe: new Set(decodeRuns(maybe, digits)),
    });
  }
  return { source: data.ROLES_SOURCE, date: data.ROLES_DATE, roles, prefixes, resourceTypes, digits };
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
