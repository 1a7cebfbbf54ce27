/**
 * ReadResource: Terraform refreshes one resource object from the remote
 * system (at every plan, and after an import). As terraform-plugin-framework's
 * proto6server/server_readresource.go: the request decoded against the type's
 * schema, the type's read, the answer encoded.
 */
import type { CtyObject } from '../../framework/cty';
import { Diagnostics } from '../../framework/diagnostics';
import { PrivateState } from '../../framework/private-state';
import type { ResourceType } from '../../framework/resource';
import { decodeObject, encodeDynamicValue } from '../dynamic-value';
import { checkKnown, type ProviderServer, type Typed } from '../provider-server';
import type { CancellableCall } from '../provider-state';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

interface ReadRequest<Context> {
  readonly typeName: string;
  readonly resource: Typed<ResourceType<Context>>;
  /** The state Terraform has; null: no object, nothing to read. */
  readonly current: CtyObject | null;
  /** The state's private data; what the read leaves here is stored with the new state. */
  readonly privateState: PrivateState;
}

interface ReadResult {
  readonly newState: CtyObject | null;
  readonly diagnostics: Diagnostics;
}

/** The ReadResource RPC. */
export async function readResource<Context>(
  server: ProviderServer<Context>,
  request: wire.ReadResourceRequest,
  call: CancellableCall,
): Promise<wire.ReadResourceResponse> {
  const decoded = decode(server, request);
  return encode(decoded, await read(server, decoded, call));
}

function decode<Context>(server: ProviderServer<Context>, request: wire.ReadResourceRequest): ReadRequest<Context> {
  const resource = server.resource(request.type_name);
  return {
    typeName: request.type_name,
    resource,
    current: decodeObject(request.current_state, resource.type, 'current state'),
    privateState: PrivateState.decode(request.private),
  };
}

async function read<Context>(server: ProviderServer<Context>, request: ReadRequest<Context>, call: CancellableCall): Promise<ReadResult> {
  const { typeName, resource, current, privateState } = request;
  const diagnostics = new Diagnostics();
  const next =
    current === null
      ? null
      : await server.state.track(call, async (signal) =>
          resource.definition.read(await server.callContext(signal, typeName, privateState), current, diagnostics),
        );
  // A failed read keeps the state Terraform had.
  const newState = diagnostics.hasError && next === null ? current : next;
  checkKnown(newState, 'state after read');
  return { newState, diagnostics };
}

function encode<Context>(request: ReadRequest<Context>, result: ReadResult): wire.ReadResourceResponse {
  return {
    new_state: encodeDynamicValue(result.newState, request.resource.type, 'state after read'),
    diagnostics: wireDiagnostics(result.diagnostics, request.resource.type),
    private: request.privateState.encode(),
  };
}
