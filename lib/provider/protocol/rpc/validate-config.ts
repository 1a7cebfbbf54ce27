/**
 * What the three Validate*Config RPCs share: the configuration decoded
 * against its schema's type, the validator's check of what is known (unknown
 * values are skipped), and its diagnostics.
 */
import type { CtyObject, CtyType } from '../../framework/cty';
import { Diagnostics } from '../../framework/diagnostics';
import type { ValidationRequest } from '../../framework/resource';
import { decodeObject } from '../dynamic-value';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

/** A provider definition, resource type or data source type, which may check its configuration. */
export interface ConfigValidator {
  validate?(config: CtyObject, diagnostics: Diagnostics, request: ValidationRequest): void;
}

/**
 * The answer of a Validate*Config RPC for `value`, a configuration of `type`; `what` names it when it cannot
 * be read; `request` says when it comes (framework/resource.ts `ValidationRequest`).
 */
export function validateConfig(
  validator: ConfigValidator,
  type: CtyType,
  value: wire.WireDynamicValue | null | undefined,
  what: string,
  request: ValidationRequest,
  /** Gets the decoded configuration first (ValidateProviderConfig records the provider block's values). */
  decoded?: (config: CtyObject | null) => void,
): wire.DiagnosticsResponse {
  const config = decodeObject(value, type, what);
  decoded?.(config);
  const diagnostics = new Diagnostics();
  if (config) validator.validate?.(config, diagnostics, request);
  return { diagnostics: wireDiagnostics(diagnostics, type) };
}
