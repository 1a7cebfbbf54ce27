/**
 * Attribute paths on the wire (tfplugin6 `AttributePath`): a diagnostic's
 * path is how Terraform points at the configuration's line, and a plan's
 * `requires_replace` names attributes the same way. A string step is an
 * attribute name, except inside a map, where it is the element's key; a
 * number is a list index.
 */
import type { CtyType, ObjectAttributes } from '../framework/cty';
import type { AttributePath } from '../framework/diagnostics';
import type { WireAttributePath } from './wire';

/** `path` as wire steps, read against `type` (the object type of the value the path starts from). */
export function wireAttributePath(path: AttributePath, type: CtyType): WireAttributePath {
  let current: CtyType | undefined = type;
  const steps = path.map((step) => {
    const kind = Array.isArray(current) ? current[0] : undefined;
    const inner: CtyType | ObjectAttributes | undefined = Array.isArray(current) ? current[1] : undefined;
    if (typeof step === 'number') {
      current = kind === 'list' || kind === 'set' ? (inner as CtyType) : undefined;
      return { element_key_int: step };
    }
    if (kind === 'map') {
      current = inner as CtyType;
      return { element_key_string: step };
    }
    current = kind === 'object' ? (inner as ObjectAttributes)[step] : undefined;
    return { attribute_name: step };
  });
  return { steps };
}
