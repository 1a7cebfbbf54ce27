/**
 * The tfplugin6 messages as proto-loader hands them over and takes them
 * back (see proto.ts): snake_case fields, enums by name, bytes as Buffers,
 * int64 as strings. Only the fields this layer reads or writes are typed.
 */

/** A cty value, msgpack- or JSON-encoded. */
export interface WireDynamicValue {
  readonly msgpack?: Uint8Array;
  readonly json?: Uint8Array;
}

/** A path to an attribute or element. */
export interface WireAttributePath {
  readonly steps: readonly (
    { readonly attribute_name: string } | { readonly element_key_string: string } | { readonly element_key_int: number | string }
  )[];
}

/** A diagnostic. */
export interface WireDiagnostic {
  readonly severity: 'ERROR' | 'WARNING';
  readonly summary: string;
  readonly detail: string;
  readonly attribute: WireAttributePath | null;
}

/** ValidateResourceConfig, ValidateDataResourceConfig and ReadDataSource requests. */
export interface TypedConfigRequest {
  readonly type_name: string;
  readonly config?: WireDynamicValue | null;
}

/** ConfigureProvider request. */
export interface ConfigureProviderRequest {
  readonly terraform_version: string;
  readonly config?: WireDynamicValue | null;
}

/** UpgradeResourceState request. */
export interface UpgradeResourceStateRequest {
  readonly type_name: string;
  readonly version: string;
  readonly raw_state?: { readonly json?: Uint8Array; readonly flatmap?: { readonly [key: string]: string } } | null;
}

/** ReadResource request. */
export interface ReadResourceRequest {
  readonly type_name: string;
  readonly current_state?: WireDynamicValue | null;
  readonly private?: Uint8Array;
}

/** PlanResourceChange request. */
export interface PlanResourceChangeRequest {
  readonly type_name: string;
  readonly prior_state?: WireDynamicValue | null;
  readonly proposed_new_state?: WireDynamicValue | null;
  readonly config?: WireDynamicValue | null;
  readonly prior_private?: Uint8Array;
}

/** ApplyResourceChange request. */
export interface ApplyResourceChangeRequest {
  readonly type_name: string;
  readonly prior_state?: WireDynamicValue | null;
  readonly planned_state?: WireDynamicValue | null;
  readonly config?: WireDynamicValue | null;
  readonly planned_private?: Uint8Array;
}

/** ImportResourceState request. */
export interface ImportResourceStateRequest {
  readonly type_name: string;
  readonly id: string;
}

/** MoveResourceState request: the source as stored, and the target type. */
export interface MoveResourceStateRequest {
  readonly source_provider_address: string;
  readonly source_type_name: string;
  readonly source_schema_version: string | number;
  readonly source_state?: { readonly json?: Uint8Array; readonly flatmap?: { readonly [key: string]: string } } | null;
  readonly target_type_name: string;
  readonly source_private?: Uint8Array;
}

/** A DynamicValue this layer writes: always msgpack. */
export interface WireEncodedValue {
  readonly msgpack: Buffer;
}

/** The answer of the RPCs that answer with diagnostics alone (validation, configuration). */
export interface DiagnosticsResponse {
  readonly diagnostics: readonly WireDiagnostic[];
}

/** UpgradeResourceState response. */
export interface UpgradeResourceStateResponse extends DiagnosticsResponse {
  readonly upgraded_state: WireEncodedValue;
}

/** ReadResource response. */
export interface ReadResourceResponse extends DiagnosticsResponse {
  readonly new_state: WireEncodedValue;
  readonly private: Uint8Array;
}

/** PlanResourceChange response. */
export interface PlanResourceChangeResponse extends DiagnosticsResponse {
  readonly planned_state: WireEncodedValue;
  readonly requires_replace: readonly WireAttributePath[];
  readonly planned_private: Uint8Array;
}

/** ApplyResourceChange response. */
export interface ApplyResourceChangeResponse extends DiagnosticsResponse {
  readonly new_state: WireEncodedValue;
  readonly private: Uint8Array;
}

/** ImportResourceState response. */
export interface ImportResourceStateResponse extends DiagnosticsResponse {
  readonly imported_resources: readonly { readonly type_name: string; readonly state: WireEncodedValue; readonly private: Uint8Array }[];
}

/** MoveResourceState response: no state when the move is refused. */
export interface MoveResourceStateResponse extends DiagnosticsResponse {
  readonly target_state: WireEncodedValue | null;
  readonly target_private: Uint8Array;
}

/** ReadDataSource response: no state when the read failed. */
export interface ReadDataSourceResponse extends DiagnosticsResponse {
  readonly state: WireEncodedValue | null;
}
