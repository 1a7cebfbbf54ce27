/**
 * MoveResourceState: a `moved` block whose `from` is another resource type,
 * or another provider's (Terraform 1.8+, OpenTofu 1.10+). As
 * terraform-plugin-framework's proto6server/server_moveresourcestate.go:
 * Terraform sends the source's provider address, type name, schema version,
 * raw JSON state and private data (never its address); the target type maps
 * them (ResourceType `moveFrom`) to a state of its own, which Terraform then
 * refreshes and plans. Nothing remote is called here.
 */
import { ContractError } from '../../../contract/contract-error';
import { parseMovedState } from '../../../contract/moved-state';
import { Diagnostics } from '../../framework/diagnostics';
import { PrivateState } from '../../framework/private-state';
import type { CtyObject } from '../../framework/cty';
import { encodeDynamicValue } from '../dynamic-value';
import { checkKnown, type ProviderServer } from '../provider-server';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

/** The MoveResourceState RPC. */
export function moveResourceState<Context>(
  server: ProviderServer<Context>,
  request: wire.MoveResourceStateRequest,
): wire.MoveResourceStateResponse {
  const { definition: resource, type } = server.resource(request.target_type_name);
  const diagnostics = new Diagnostics();
  const source = `${request.source_type_name} (${request.source_provider_address})`;
  const targetPrivate = PrivateState.decode(null);
  let moved: CtyObject | null = null;
  const state = rawState(request, diagnostics, source);
  if (state !== undefined) {
    if (!resource.moveFrom) {
      diagnostics.error(
        'Move not supported',
        `The resource type "${request.target_type_name}" cannot take over a ${source} object: import it instead.`,
      );
    } else {
      moved = resource.moveFrom(
        {
          providerAddress: request.source_provider_address,
          typeName: request.source_type_name,
          schemaVersion: Number(request.source_schema_version ?? 0),
          state,
          private: PrivateState.decode(request.source_private),
        },
        diagnostics,
        targetPrivate,
      );
      if (moved === null && !diagnostics.hasError)
        diagnostics.error('Move not supported', `The resource type "${request.target_type_name}" cannot take over a ${source} object.`);
    }
  }
  if (diagnostics.hasError) moved = null;
  else checkKnown(moved, 'moved state');
  return {
    target_state: moved === null ? null : encodeDynamicValue(moved, type, 'moved state'),
    target_private: moved === null ? Buffer.alloc(0) : targetPrivate.encode(),
    diagnostics: wireDiagnostics(diagnostics, type),
  };
}

/** The source's stored state, parsed; an error when there is none Terraform 0.12 or later wrote. */
function rawState(
  request: wire.MoveResourceStateRequest,
  diagnostics: Diagnostics,
  source: string,
): Readonly<Record<string, unknown>> | undefined {
  const raw = request.source_state;
  if (!raw?.json || raw.json.length === 0) {
    diagnostics.error(
      'Unable to move the state',
      raw?.flatmap && Object.keys(raw.flatmap).length > 0
        ? `The ${source} state is in the legacy flatmap format (Terraform 0.11 and earlier): refresh it with its own provider first.`
        : `Terraform sent no state of the ${source} object.`,
    );
    return undefined;
  }
  try {
    return parseMovedState(Buffer.from(raw.json).toString('utf8'));
  } catch (e) {
    diagnostics.error('Unable to move the state', `The ${source} state is ${e instanceof ContractError ? e.reason : String(e)}.`);
    return undefined;
  }
}
