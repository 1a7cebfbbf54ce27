/**
 * ImportResourceState: Terraform adopts the object(s) an import ID names;
 * it then reads each (ReadResource). As terraform-plugin-framework's
 * proto6server/server_importresourcestate.go: the type's import, the
 * answer encoded. The imported objects start with no private state.
 */
import type { CtyObject, CtyType } from '../../framework/cty';
import { Diagnostics } from '../../framework/diagnostics';
import { encodeDynamicValue } from '../dynamic-value';
import type { ProviderServer } from '../provider-server';
import type { CancellableCall } from '../provider-state';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

/** The ImportResourceState RPC. */
export async function importResourceState<Context>(
  server: ProviderServer<Context>,
  request: wire.ImportResourceStateRequest,
  call: CancellableCall,
): Promise<wire.ImportResourceStateResponse> {
  const { definition: resource, type } = server.resource(request.type_name);
  const diagnostics = new Diagnostics();
  const imported = await server.state.track(call, async (signal) =>
    resource.importState(await server.callContext(signal, request.type_name), request.id, diagnostics),
  );
  return encode(request.type_name, type, imported, diagnostics);
}

function encode(
  typeName: string,
  type: CtyType,
  imported: readonly CtyObject[],
  diagnostics: Diagnostics,
): wire.ImportResourceStateResponse {
  return {
    imported_resources: diagnostics.hasError
      ? []
      : imported.map((object) => ({
          type_name: typeName,
          state: encodeDynamicValue(object, type, 'imported state'),
          private: Buffer.alloc(0),
        })),
    diagnostics: wireDiagnostics(diagnostics, type),
  };
}
