import type { IamResource } from '../../iam/grant';

/**
 * The resource of a grant built only to check its role, principals and
 * conditions (lib/iam grant-validation looks at nothing else): the resource
 * attributes are checked by the type's descriptor.
 */
export const UNRESOLVED_RESOURCE: IamResource = { service: '', apiVersion: '', name: '' };
