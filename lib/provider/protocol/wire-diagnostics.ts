/** Diagnostics on the wire. */
import type { CtyType } from '../framework/cty';
import { Diagnostics, type Diagnostic } from '../framework/diagnostics';
import { wireAttributePath } from './attribute-path';
import type { WireDiagnostic } from './wire';

/** `diagnostics` on the wire; attribute paths are read against `type`, the object type of the value they are about. */
export function wireDiagnostics(diagnostics: Diagnostics | readonly Diagnostic[], type: CtyType = ['object', {}]): WireDiagnostic[] {
  const all = diagnostics instanceof Diagnostics ? diagnostics.all : diagnostics;
  return all.map((d) => ({
    severity: d.severity,
    summary: d.summary,
    detail: d.detail,
    attribute: d.attribute && d.attribute.length > 0 ? wireAttributePath(d.attribute, type) : null,
  }));
}
