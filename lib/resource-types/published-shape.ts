import { GoogleIamApis, type GetIamPolicyShape } from '../api/iam-apis';
import type { TypedResourceTypeRow } from './typed-resource-types';

/**
 * How the getIamPolicy of a typed row's collection is called, as Google's
 * published API (GoogleIamApis) says; throws when the row is not an
 * IAM-enabled collection there. The constructs check it as the library
 * loads, the provider as it starts.
 */
export function publishedRowShape(row: Pick<TypedResourceTypeRow, 'service' | 'apiVersion' | 'collection'>): GetIamPolicyShape {
  const template = `projects/*/locations/*/${row.collection}/*`;
  const collection = GoogleIamApis.apiVersion(row.service, row.apiVersion)?.collections.find((c) => c.template === template);
  if (!collection?.writable)
    throw new Error(`${row.service} ${row.apiVersion} ${template} is not an IAM-enabled collection in ${GoogleIamApis.SOURCE}`);
  return collection.shape;
}
