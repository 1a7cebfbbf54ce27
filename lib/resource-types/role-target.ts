import { GoogleIamApis } from '../api/iam-apis';
import type { RoleTarget } from '../iam/role-grantability';
import type { TypedResourceTypeRow } from './typed-resource-types';

/**
 * The resource type the role checks (lib/iam/role-check.ts) look at, for a
 * typed row or for a collection of Google's published API. Pure: the
 * constructs, the provider and the emulator share it.
 */

/** The target of a typed row's grants: `an authorization policy`. */
export function typedRoleTarget(row: Pick<TypedResourceTypeRow, 'service' | 'collection' | 'label'>): RoleTarget {
  return { service: row.service, collection: row.collection, label: `${/^[aeiou]/i.test(row.label) ? 'an' : 'a'} ${row.label}` };
}

/** The target of a collection given by its name template: `projects/*\/secrets/* (secretmanager)`. */
export function templateRoleTarget(service: string, template: string): RoleTarget | undefined {
  const segment = template
    .split('/')
    .filter((part) => part !== '*' && part !== '**')
    .at(-1);
  return segment === undefined
    ? undefined
    : { service, collection: GoogleIamApis.collectionName(service, segment), label: `${template} (${service})` };
}

/** The target of a generic grant's resource: the collection Google publishes for the name; undefined when none does. */
export function genericRoleTarget(service: string, apiVersion: string, name: string): RoleTarget | undefined {
  const collection = GoogleIamApis.collection(service, apiVersion, name);
  return collection && templateRoleTarget(service, collection.template);
}
