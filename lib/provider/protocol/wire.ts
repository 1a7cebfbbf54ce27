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

/** A request that names a resource or data source type and carries its configuration. */
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
