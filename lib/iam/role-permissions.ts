import { unpackTable, type PackedTable } from './packed-table';
import { prefixNumbersOf, type PredefinedRole } from './role-table';

/**
 * The names of the permission prefixes roles hold (`service.collection`, e.g.
 * `networksecurity.authorizationPolicies`), read from
 * permission-prefixes.generated.json on first use. A file of their own: the
 * checks of a grant's roles need only the numbers (role-table.ts), so what
 * loads only those (the provider's bundle) goes without the names.
 */

/** The table of permission-prefixes.generated.json: one service a line, `service collection collection ...`, numbered in this order from 0. */
export interface PermissionPrefixData {
  readonly source: string;
  readonly permissionPrefixes: readonly string[];
}

let names: readonly string[] | undefined;

/** Every permission prefix, by number. */
export function permissionPrefixes(): readonly string[] {
  names ??= decodePermissionPrefixes(loadData());
  return names;
}

/** The permission prefixes `role` holds, in order; `prefixes` the names by number (the catalogue's, unless a test gives others). */
export function prefixesOf(role: PredefinedRole, prefixes: readonly string[] = permissionPrefixes()): string[] {
  return [...prefixNumbersOf(role)].sort((a, b) => a - b).map((n) => prefixes[n]);
}

/** The names `data` lists, by number; exported for the generator's test. */
export function decodePermissionPrefixes(data: PermissionPrefixData): string[] {
  return data.permissionPrefixes.flatMap((line) => {
    const [service, ...collections] = line.split(' ');
    return collections.map((collection) => `${service}.${collection}`);
  });
}

/* eslint-disable @typescript-eslint/no-require-imports */
function loadData(): PermissionPrefixData {
  return unpackTable<PermissionPrefixData>(require('./permission-prefixes.generated.json') as PackedTable);
}
/* eslint-enable @typescript-eslint/no-require-imports */
