/**
 * The tfplugin6.Provider service for any ProviderDefinition: each RPC
 * Terraform 1.11 calls decodes its values with the type's schema, calls the
 * definition, and encodes the answer. Every problem is a diagnostic (with
 * the attribute's path where there is one), never a bare gRPC error.
 */
import type * as grpc from '@grpc/grpc-js';
import { isWhollyKnown, type CtyObject, type CtyType } from '../framework/cty';
import { Diagnostics } from '../framework/diagnostics';
import { PrivateState } from '../framework/private-state';
import type { CallContext, DataSourceType, ProviderDefinition, ResourceType } from '../framework/resource';
import { schemaType, type Schema } from '../framework/schema';
import { wireAttributePath } from './attribute-path';
import { decodeDynamicValue, encodeDynamicValue } from './dynamic-value';
import type { Logger } from './log';
import { planResourceChange } from './planning';
import { ProtocolError } from './protocol-error';
import { ProviderState } from './provider-state';
import { redact } from './redact';
import type * as wire from './wire';
import { wireDiagnostics } from './wire-diagnostics';
import { wireSchema } from './wire-schema';
import { ctyFromJson } from '../framework/cty';

/** The service's handlers, and what the plugin server calls on Shutdown. */
export interface ProviderService {
  readonly implementation: grpc.UntypedServiceImplementation;
  /** Aborts every running call and tells the definition to stop. */
  stop(): void;
}

/** As terraform-plugin-framework announces them, except MoveResourceState, which no type here supports. */
const SERVER_CAPABILITIES = { plan_destroy: true, get_provider_schema_optional: true, move_resource_state: false };

/** A type with its schema's cty type, computed once. */
interface Typed<T> {
  readonly definition: T;
  readonly type: CtyType;
}

/** The tfplugin6.Provider handlers serving `definition`. */
export function createProviderService<Context>(definition: ProviderDefinition<Context>, logger: Logger): ProviderService {
  const state = new ProviderState<Context>();
  const providerType = schemaType(definition.schema);
  const resources = byTypeName(definition.resources);
  const dataSources = byTypeName(definition.dataSources);
  const resource = (typeName: string): Typed<ResourceType<Context>> =>
    resources.get(typeName) ?? fail(ProtocolError.unknownType('resource', typeName, definition.name));
  const dataSource = (typeName: string): Typed<DataSourceType<Context>> =>
    dataSources.get(typeName) ?? fail(ProtocolError.unknownType('data source', typeName, definition.name));
  const objectValue = (value: wire.WireDynamicValue | null | undefined, type: CtyType, what: string): CtyObject | null =>
    decodeDynamicValue(value, type, what) as CtyObject | null;
  const callContext = async (
    signal: AbortSignal,
    typeName: string,
    privateState: PrivateState = PrivateState.decode(null),
  ): Promise<CallContext<Context>> => ({
    provider: await state.configuredContext(signal),
    signal,
    private: privateState,
    log: (level, message, fields = {}) => logger.log(level, message, { tf_resource_type: typeName, ...fields }),
  });

  const stop = (): void => {
    state.stopAll();
    definition.stop?.();
  };

  const implementation: grpc.UntypedServiceImplementation = {
    GetMetadata: unary('GetMetadata', logger, () => ({
      server_capabilities: SERVER_CAPABILITIES,
      diagnostics: [],
      data_sources: [...dataSources.keys()].map((type_name) => ({ type_name })),
      resources: [...resources.keys()].map((type_name) => ({ type_name })),
      functions: [],
      ephemeral_resources: [],
    })),

    GetProviderSchema: unary('GetProviderSchema', logger, () => ({
      provider: wireSchema(definition.schema),
      resource_schemas: mapValues(resources, (r) => wireSchema(r.definition.schema)),
      data_source_schemas: mapValues(dataSources, (d) => wireSchema(d.definition.schema)),
      functions: {},
      ephemeral_resource_schemas: {},
      diagnostics: [],
      provider_meta: null,
      server_capabilities: SERVER_CAPABILITIES,
    })),

    ValidateProviderConfig: unary('ValidateProviderConfig', logger, (request: { config?: wire.WireDynamicValue | null }) => {
      const config = objectValue(request.config, providerType, 'provider configuration');
      const diagnostics = new Diagnostics();
      if (config) definition.validate?.(config, diagnostics);
      return { diagnostics: wireDiagnostics(diagnostics, providerType) };
    }),

    ValidateResourceConfig: unary('ValidateResourceConfig', logger, (request: wire.TypedConfigRequest) => {
      const { definition: type, type: ctyType } = resource(request.type_name);
      const config = objectValue(request.config, ctyType, 'resource configuration');
      const diagnostics = new Diagnostics();
      if (config) type.validate?.(config, diagnostics, { providerConfigured: state.isConfigured });
      return { diagnostics: wireDiagnostics(diagnostics, ctyType) };
    }),

    ValidateDataResourceConfig: unary('ValidateDataResourceConfig', logger, (request: wire.TypedConfigRequest) => {
      const { definition: type, type: ctyType } = dataSource(request.type_name);
      return { diagnostics: wireDiagnostics(validate(type, objectValue(request.config, ctyType, 'data source configuration')), ctyType) };
    }),

    ValidateEphemeralResourceConfig: unary('ValidateEphemeralResourceConfig', logger, () => {
      throw ProtocolError.unsupported('ephemeral resources');
    }),

    UpgradeResourceState: unary('UpgradeResourceState', logger, (request: wire.UpgradeResourceStateRequest) => {
      const { type: ctyType } = resource(request.type_name);
      const raw = request.raw_state;
      if (!raw?.json || raw.json.length === 0) {
        if (raw?.flatmap && Object.keys(raw.flatmap).length > 0) throw ProtocolError.flatmapState();
        return { upgraded_state: encodeDynamicValue(null, ctyType, 'upgraded state'), diagnostics: [] };
      }
      let upgraded;
      try {
        // Attributes a former schema had and this one lacks are dropped; new ones start null.
        upgraded = ctyFromJson(JSON.parse(Buffer.from(raw.json).toString('utf8')), ctyType, { dropUnknownAttributes: true });
      } catch (e) {
        throw ProtocolError.undecodable('stored state', (e as Error).message);
      }
      return { upgraded_state: encodeDynamicValue(upgraded, ctyType, 'upgraded state'), diagnostics: [] };
    }),

    ConfigureProvider: unary('ConfigureProvider', logger, async (request: wire.ConfigureProviderRequest) => {
      const diagnostics = new Diagnostics();
      let config: CtyObject | null;
      try {
        config = objectValue(request.config, providerType, 'provider configuration');
      } catch (e) {
        state.configured(undefined);
        throw e;
      }
      logger.log('debug', 'configuring the provider', {
        terraform_version: request.terraform_version,
        config: redact(config, definition.schema.attributes),
      });
      try {
        const context = await definition.configure(config ?? {}, diagnostics);
        state.configured(diagnostics.hasError ? undefined : context);
      } catch (e) {
        state.configured(undefined);
        throw e;
      }
      return { diagnostics: wireDiagnostics(diagnostics, providerType) };
    }),

    ReadResource: unary('ReadResource', logger, async (request: wire.ReadResourceRequest, call) => {
      const { definition: type, type: ctyType } = resource(request.type_name);
      const current = objectValue(request.current_state, ctyType, 'current state');
      const diagnostics = new Diagnostics();
      const privateState = PrivateState.decode(request.private);
      const next =
        current === null
          ? null
          : await state.track(call, async (signal) =>
              type.read(await callContext(signal, request.type_name, privateState), current, diagnostics),
            );
      // A failed read keeps the state Terraform had.
      const newState = diagnostics.hasError && next === null ? current : next;
      checkKnown(newState, 'state after read');
      return {
        new_state: encodeDynamicValue(newState, ctyType, 'state after read'),
        diagnostics: wireDiagnostics(diagnostics, ctyType),
        private: privateState.encode(),
      };
    }),

    PlanResourceChange: unary('PlanResourceChange', logger, (request: wire.PlanResourceChangeRequest) => {
      const { definition: type, type: ctyType } = resource(request.type_name);
      const diagnostics = new Diagnostics();
      const plan = planResourceChange(
        type,
        {
          prior: objectValue(request.prior_state, ctyType, 'prior state'),
          proposed: objectValue(request.proposed_new_state, ctyType, 'proposed new state'),
          config: objectValue(request.config, ctyType, 'resource configuration'),
        },
        diagnostics,
      );
      return {
        planned_state: encodeDynamicValue(plan.planned, ctyType, 'planned state'),
        requires_replace: plan.requiresReplace.map((path) => wireAttributePath(path, ctyType)),
        planned_private: request.prior_private ?? Buffer.alloc(0),
        diagnostics: wireDiagnostics(diagnostics, ctyType),
      };
    }),

    ApplyResourceChange: unary('ApplyResourceChange', logger, async (request: wire.ApplyResourceChangeRequest, call) => {
      const { definition: type, type: ctyType } = resource(request.type_name);
      const prior = objectValue(request.prior_state, ctyType, 'prior state');
      const planned = objectValue(request.planned_state, ctyType, 'planned state');
      const diagnostics = new Diagnostics();
      const privateState = PrivateState.decode(request.planned_private);
      const newState = await state.track(call, async (signal) => {
        const context = await callContext(signal, request.type_name, privateState);
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
      return {
        new_state: encodeDynamicValue(newState, ctyType, 'state after apply'),
        private: privateState.encode(),
        diagnostics: wireDiagnostics(diagnostics, ctyType),
      };
    }),

    ImportResourceState: unary('ImportResourceState', logger, async (request: wire.ImportResourceStateRequest, call) => {
      const { definition: type, type: ctyType } = resource(request.type_name);
      const diagnostics = new Diagnostics();
      const imported = await state.track(call, async (signal) =>
        type.importState(await callContext(signal, request.type_name), request.id, diagnostics),
      );
      return {
        imported_resources: diagnostics.hasError
          ? []
          : imported.map((object) => ({
              type_name: request.type_name,
              state: encodeDynamicValue(object, ctyType, 'imported state'),
              private: Buffer.alloc(0),
            })),
        diagnostics: wireDiagnostics(diagnostics, ctyType),
      };
    }),

    MoveResourceState: unary('MoveResourceState', logger, () => {
      throw ProtocolError.unsupported('moving resources between types (moved blocks across resource types)');
    }),

    ReadDataSource: unary('ReadDataSource', logger, async (request: wire.TypedConfigRequest, call) => {
      const { definition: type, type: ctyType } = dataSource(request.type_name);
      const config = objectValue(request.config, ctyType, 'data source configuration');
      const diagnostics = new Diagnostics();
      const result =
        config === null
          ? null
          : await state.track(call, async (signal) => type.read(await callContext(signal, request.type_name), config, diagnostics));
      if (result === null && !diagnostics.hasError)
        throw ProtocolError.invalidResult('data source result', `${request.type_name} read no value`);
      checkKnown(result, 'data source result');
      return {
        state: diagnostics.hasError ? null : encodeDynamicValue(result, ctyType, 'data source result'),
        diagnostics: wireDiagnostics(diagnostics, ctyType),
      };
    }),

    OpenEphemeralResource: unary('OpenEphemeralResource', logger, () => {
      throw ProtocolError.unsupported('ephemeral resources');
    }),
    RenewEphemeralResource: unary('RenewEphemeralResource', logger, () => {
      throw ProtocolError.unsupported('ephemeral resources');
    }),
    CloseEphemeralResource: unary('CloseEphemeralResource', logger, () => {
      throw ProtocolError.unsupported('ephemeral resources');
    }),

    GetFunctions: unary('GetFunctions', logger, () => ({ functions: {}, diagnostics: [] })),

    // CallFunction answers with a FunctionError, not diagnostics.
    CallFunction: (call: grpc.ServerUnaryCall<{ name: string }, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      callback(null, { result: null, error: { text: `This provider has no function "${call.request.name}".` } });
    },

    // Answered at once: running calls see their signal abort and settle on their own.
    StopProvider: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => {
      logger.log('info', 'StopProvider: aborting running calls');
      stop();
      callback(null, { Error: '' });
    },
  };
  return { implementation, stop };
}

function validate(type: { validate?(config: CtyObject, diagnostics: Diagnostics): void }, config: CtyObject | null): Diagnostics {
  const diagnostics = new Diagnostics();
  if (config) type.validate?.(config, diagnostics);
  return diagnostics;
}

function checkKnown(value: CtyObject | null, what: string): void {
  if (value !== null && !isWhollyKnown(value)) throw ProtocolError.invalidResult(what, 'it holds values that are still unknown');
}

function byTypeName<T extends { readonly typeName: string; readonly schema: Schema }>(types: readonly T[]): Map<string, Typed<T>> {
  return new Map(types.map((definition) => [definition.typeName, { definition, type: schemaType(definition.schema) }]));
}

function mapValues<T>(map: Map<string, T>, f: (value: T) => unknown): Record<string, unknown> {
  return Object.fromEntries([...map].map(([key, value]) => [key, f(value)]));
}

function fail(error: ProtocolError): never {
  throw error;
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
