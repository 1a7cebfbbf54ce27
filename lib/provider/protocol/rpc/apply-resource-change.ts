/**
 * ApplyResourceChange: Terraform carries out one planned change of a
 * resource object: a create (no prior state), an update, or a delete (no
 * planned state). As terraform-plugin-framework's
 * proto6server/server_applyresourcechange.go: the request decoded against the
 * type's schema, the type's create, update or delete, the answer encoded.
 */
import type { CtyObject } from '../../framework/cty';
import { Diagnostics } from '../../framework/diagnostics';
import { PrivateState } from '../../framework/private-state';
import type { ResourceType } from '../../framework/resource';
import { decodeObject, encodeDynamicValue } from '../dynamic-value';
import { ProtocolError } from '../protocol-error';
import { checkKnown, type ProviderServer, type Typed } from '../provider-server';
import type { CancellableCall } from '../provider-state';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

interface ApplyRequest<Context> {
  readonly typeName: string;
  readonly resource: Typed<ResourceType<Context>>;
  /** The state before; null for a create. */
  readonly prior: CtyObject | null;
  /** The planned state; null for a delete. */
  readonly planned: CtyObject | null;
  /** The plan's private data; what the change leaves here is stored with the new state. */
  readonly privateState: PrivateState;
}

interface ApplyResult {
  readonly newState: CtyObject | null;
  readonly diagnostics: Diagnostics;
}

/** The ApplyResourceChange RPC. */
export async function applyResourceChange<Context>(
  server: ProviderServer<Context>,
  request: wire.ApplyResourceChangeRequest,
  call: CancellableCall,
): Promise<wire.ApplyResourceChangeResponse> {
  const decoded = decode(server, request);
  return encode(decoded, await apply(server, decoded, call));
}

function decode<Context>(server: ProviderServer<Context>, request: wire.ApplyResourceChangeRequest): ApplyRequest<Context> {
  const resource = server.resource(request.type_name);
  return {
    typeName: request.type_name,
    resource,
    prior: decodeObject(request.prior_state, resource.type, 'prior state'),
    planned: decodeObject(request.planned_state, resource.type, 'planned state'),
    privateState: PrivateState.decode(request.planned_private),
  };
}

async function apply<Context>(
  server: ProviderServer<Context>,
  request: ApplyRequest<Context>,
  call: CancellableCall,
): Promise<ApplyResult> {
  const { typeName, resource, prior, planned, privateState } = request;
  const type = resource.definition;
  const diagnostics = new Diagnostics();
  const newState = await server.state.track(call, async (signal) => {
    const context = await server.callContext(signal, typeName, privateState);
    const unreadPlan = await server.unchangedTold(signal);
    if (unreadPlan) {
      const { summary, detail } = ProtocolError.savedPlanUnread(unreadPlan);
      diagnostics.warning(summary, detail);
    }
    if (planned === null) {
      if (prior !== null) await type.delete(context, prior, diagnostics);
      // A failed delete leaves the object in Terraform's state.
      return diagnostics.hasError ? prior : null;
    }
    if (prior === null) return type.create(context, planned, diagnostics);
    const updated = await type.update(context, prior, planned, diagnostics);
    return diagnostics.hasError && updated === null ? prior : updated;
  });
  checkKnown(newState, 'state after apply');
  return { newState, diagnostics };
}

function encode<Context>(request: ApplyRequest<Context>, result: ApplyResult): wire.ApplyResourceChangeResponse {
  return {
    new_state: encodeDynamicValue(result.newState, request.resource.type, 'state after apply'),
    private: request.privateState.encode(),
    diagnostics: wireDiagnostics(result.diagnostics, request.resource.type),
  };
}
