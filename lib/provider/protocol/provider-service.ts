/**
 * The tfplugin6.Provider service for any ProviderDefinition, as
 * terraform-plugin-framework's proto6server: one handler per RPC (rpc/*.ts),
 * each decoding its request with the type's schema, calling the definition
 * and encoding the answer, over one ProviderServer. Every problem is a
 * diagnostic (with the attribute's path where there is one), never a bare
 * gRPC error.
 */
import type * as grpc from '@grpc/grpc-js';
import type { ProviderDefinition } from '../framework/resource';
import type { Logger } from './log';
import { ProtocolError } from './protocol-error';
import { ProviderServer } from './provider-server';
import type { CancellableCall } from './provider-state';
import { applyResourceChange } from './rpc/apply-resource-change';
import { configureProvider } from './rpc/configure-provider';
import { callFunction, getFunctions } from './rpc/functions';
import { getMetadata } from './rpc/get-metadata';
import { getProviderSchema } from './rpc/get-provider-schema';
import { importResourceState } from './rpc/import-resource-state';
import { moveResourceState } from './rpc/move-resource-state';
import { planResourceChange } from './rpc/plan-resource-change';
import { readDataSource } from './rpc/read-data-source';
import { readResource } from './rpc/read-resource';
import { stopProvider } from './rpc/stop-provider';
import { upgradeResourceState } from './rpc/upgrade-resource-state';
import { validateDataResourceConfig } from './rpc/validate-data-resource-config';
import { validateProviderConfig } from './rpc/validate-provider-config';
import { validateResourceConfig } from './rpc/validate-resource-config';

/** The service's handlers, and what the plugin server calls on Shutdown. */
export interface ProviderService {
  readonly implementation: grpc.UntypedServiceImplementation;
  /** Aborts every running call and tells the definition to stop. */
  stop(): void;
}

/** The tfplugin6.Provider handlers serving `definition`. */
export function createProviderService<Context>(definition: ProviderDefinition<Context>, logger: Logger): ProviderService {
  const server = new ProviderServer(definition, logger);
  const rpc = <Request>(name: string, handle: (server: ProviderServer<Context>, request: Request, call: CancellableCall) => unknown) =>
    unary<Request>(name, logger, (request, call) => handle(server, request, call));
  const refused = (name: string, what: string) =>
    unary(name, logger, () => {
      throw ProtocolError.unsupported(what);
    });

  const implementation: grpc.UntypedServiceImplementation = {
    GetMetadata: rpc('GetMetadata', getMetadata),
    GetProviderSchema: rpc('GetProviderSchema', getProviderSchema),
    ValidateProviderConfig: rpc('ValidateProviderConfig', validateProviderConfig),
    ValidateResourceConfig: rpc('ValidateResourceConfig', validateResourceConfig),
    ValidateDataResourceConfig: rpc('ValidateDataResourceConfig', validateDataResourceConfig),
    ValidateEphemeralResourceConfig: refused('ValidateEphemeralResourceConfig', 'ephemeral resources'),
    UpgradeResourceState: rpc('UpgradeResourceState', upgradeResourceState),
    ConfigureProvider: rpc('ConfigureProvider', configureProvider),
    ReadResource: rpc('ReadResource', readResource),
    PlanResourceChange: rpc('PlanResourceChange', planResourceChange),
    ApplyResourceChange: rpc('ApplyResourceChange', applyResourceChange),
    ImportResourceState: rpc('ImportResourceState', importResourceState),
    MoveResourceState: rpc('MoveResourceState', moveResourceState),
    ReadDataSource: rpc('ReadDataSource', readDataSource),
    OpenEphemeralResource: refused('OpenEphemeralResource', 'ephemeral resources'),
    RenewEphemeralResource: refused('RenewEphemeralResource', 'ephemeral resources'),
    CloseEphemeralResource: refused('CloseEphemeralResource', 'ephemeral resources'),
    GetFunctions: rpc('GetFunctions', getFunctions),
    // Not diagnostics answers: CallFunction answers with a FunctionError, StopProvider with an `Error` string.
    CallFunction: callFunction,
    StopProvider: stopProvider(server),
  };
  return { implementation, stop: () => server.stop() };
}

/**
 * A unary handler from a (possibly async) function. Whatever it throws is
 * answered as an error diagnostic: a ProtocolError as worded, anything else
 * as an internal error.
 */
function unary<Request>(
  rpc: string,
  logger: Logger,
  handle: (request: Request, call: grpc.ServerUnaryCall<Request, unknown>) => unknown,
): grpc.handleUnaryCall<Request, unknown> {
  return (call, callback) => {
    const typeName = (call.request as { type_name?: string }).type_name;
    logger.log('trace', `${rpc} received`, { tf_rpc: rpc, ...(typeName ? { tf_resource_type: typeName } : {}) });
    Promise.resolve()
      .then(() => handle(call.request, call))
      .then(
        (response) => callback(null, response),
        (e: unknown) => {
          const error = e instanceof ProtocolError ? e : ProtocolError.internal(rpc, e);
          if (!(e instanceof ProtocolError))
            logger.log('error', `${rpc} failed`, { tf_rpc: rpc, error: e instanceof Error ? e.stack : String(e) });
          callback(null, { diagnostics: [{ severity: 'ERROR', summary: error.summary, detail: error.detail, attribute: null }] });
        },
      );
  };
}
