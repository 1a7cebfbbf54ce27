/**
 * SARIF 2.1.0 validation against the published schema (OASIS 2.1.0 rtm.5, as
 * the @microsoft/jest-sarif package carries it; draft-04 JSON Schema, so ajv 6).
 */
import Ajv = require('ajv');

const SCHEMA = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as object;
const DRAFT_04 = require('ajv/lib/refs/json-schema-draft-04.json') as object;

let validator: Ajv.ValidateFunction | undefined;

/** The schema's complaints about `log` (none: it is valid SARIF 2.1.0). */
export function sarifErrors(log: unknown): string[] {
  if (!validator) {
    const ajv = new Ajv({ schemaId: 'auto', allErrors: true });
    ajv.addMetaSchema(DRAFT_04);
    validator = ajv.compile(SCHEMA);
  }
  return validator(log) ? [] : (validator.errors ?? []).map((e) => `${e.dataPath} ${e.message}`);
}
