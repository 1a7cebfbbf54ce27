/**
 * PlanResourceChange: Terraform asks what a change of one resource object
 * will do (planning.ts holds the rules). As terraform-plugin-framework's
 * proto6server/server_planresourcechange.go: the request decoded against the
 * type's schema, the plan, the answer encoded.
 */
import type { CtyObject } from '../../framework/cty';
import { Diagnostics } from '../../framework/diagnostics';
import { PrivateState } from '../../framework/private-state';
import type { ResourceType } from '../../framework/resource';
import { wireAttributePath } from '../attribute-path';
import { decodeObject, encodeDynamicValue } from '../dynamic-value';
import { planResourceChange as plan, type Plan } from '../planning';
import type { ProviderServer, Typed } from '../provider-server';
import type { CancellableCall } from '../provider-state';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

interface PlanRequest<Context> {
  readonly typeName: string;
  readonly resource: Typed<ResourceType<Context>>;
  readonly prior: CtyObject | null;
  /** Null for a destroy. */
  readonly proposed: CtyObject | null;
  readonly config: CtyObject | null;
  /** The state's private data, handed on to ApplyResourceChange as it is. */
  readonly priorPrivate: Uint8Array | undefined;
}

/** The PlanResourceChange RPC: the type plans with the configured provider (it may read, never write). */
export async function planResourceChange<Context>(
  server: ProviderServer<Context>,
  request: wire.PlanResourceChangeRequest,
  call: CancellableCall,
): Promise<wire.PlanResourceChangeResponse> {
  const decoded = decode(server, request);
  const diagnostics = new Diagnostics();
  const planned = await server.state.track(call, async (signal) => {
    const context = await server.callContext(signal, decoded.typeName, PrivateState.decode(decoded.priorPrivate));
    return plan(decoded.resource.definition, decoded, diagnostics, context);
  });
  return encode(decoded, planned, diagnostics);
}

function decode<Context>(server: ProviderServer<Context>, request: wire.PlanResourceChangeRequest): PlanRequest<Context> {
  const resource = server.resource(request.type_name);
  return {
    typeName: request.type_name,
    resource,
    prior: decodeObject(request.prior_state, resource.type, 'prior state'),
    proposed: decodeObject(request.proposed_new_state, resource.type, 'proposed new state'),
    config: decodeObject(request.config, resource.type, 'resource configuration'),
    priorPrivate: request.prior_private,
  };
}

function encode<Context>(request: PlanRequest<Context>, planned: Plan, diagnostics: Diagnostics): wire.PlanResourceChangeResponse {
  const { type } = request.resource;
  return {
    planned_state: encodeDynamicValue(planned.planned, type, 'planned state'),
    requires_replace: planned.requiresReplace.map((path) => wireAttributePath(path, type)),
    planned_private: request.priorPrivate ?? Buffer.alloc(0),
    diagnostics: wireDiagnostics(diagnostics, type),
  };
}
