import type { ResourceNameFormat } from '../iam/resource-name';
import { TYPED_RESOURCE_TYPE_ROWS, type TypedResourceTypeRow } from './typed-resource-types';

/**
 * The names a typed row's types take, `projects/{p}/locations/{l}/{collection}/{id}`,
 * with the row's lookalikes: a name of a lookalike row's collection is refused
 * with a message naming `typeTaking(lookalike's stem)`, the type of the same
 * kind that takes it (a construct at synth, a provider type at plan).
 * Pure: the constructs and the provider share it.
 */
export function typedNameFormat(row: TypedResourceTypeRow, typeTaking: (stem: string) => string): ResourceNameFormat {
  const lookalikes = (row.lookalikes ?? []).map((stem) => {
    const { collection, label } = typedRow(stem);
    return { collection, label, useInstead: typeTaking(stem) };
  });
  return { collection: row.collection, label: row.label, ...(lookalikes.length > 0 ? { lookalikes } : {}) };
}

/** The row of `stem`; throws when there is none. */
export function typedRow(stem: string): TypedResourceTypeRow {
  const row = TYPED_RESOURCE_TYPE_ROWS.find((candidate) => candidate.stem === stem);
  if (!row) throw new Error(`${stem} is not a row of typed-resource-types.ts`);
  return row;
}
