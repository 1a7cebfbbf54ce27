/**
 * The tfplugin6.Provider service: what Terraform 1.11 calls on a provider
 * that has no configuration and one data source. Every problem with a
 * request is answered as a diagnostic, as the real provider framework does,
 * so that Terraform shows it instead of a bare gRPC error.
 */
import type * as grpc from '@grpc/grpc-js';
import {
  DATA_SOURCE_ATTRIBUTES,
  DATA_SOURCE_DESCRIPTION,
  DATA_SOURCE_TYPE,
  DATA_SOURCE_TYPE_NAME,
  Diagnostic,
  SchemaAttribute,
  readDataSource,
  validateConfig,
} from './data-source';
import { CtyObject, decodeCty, encodeCty } from './msgpack-cty';

/** The wire shapes used here (proto-loader objects: snake_case, enums by name). */
interface DynamicValue {
  readonly msgpack?: Buffer;
  readonly json?: Buffer;
}
interface DataSourceRequest {
  readonly type_name: string;
  readonly config?: DynamicValue | null;
}

/** The provider's gRPC service (tfplugin6.Provider), as handlers. */
export interface ProviderService {
  readonly implementation: grpc.UntypedServiceImplementation;
  /** Kills the programs still running (StopProvider, or the plugin shutting down). */
  stopAll(): void;
}

/** The handlers of the stand-in provider: schema, validation, configuration, and the `external` data source. */
export function createProviderService(): ProviderService {
  const running = new Set<AbortController>();
  const stopAll = (): void => {
    for (const controller of running) controller.abort();
  };

  const implementation: grpc.UntypedServiceImplementation = {
    GetMetadata: unary(() => ({
      server_capabilities: SERVER_CAPABILITIES,
      diagnostics: [],
      data_sources: [{ type_name: DATA_SOURCE_TYPE_NAME }],
      resources: [],
    })),

    GetProviderSchema: unary(() => ({
      provider: schema([], ''),
      resource_schemas: {},
      data_source_schemas: { [DATA_SOURCE_TYPE_NAME]: schema(DATA_SOURCE_ATTRIBUTES, DATA_SOURCE_DESCRIPTION) },
      diagnostics: [],
      server_capabilities: SERVER_CAPABILITIES,
    })),

    // The provider block has no arguments, and Terraform has already checked the config against the (empty) schema.
    ValidateProviderConfig: unary(() => ({ diagnostics: [] })),
    ConfigureProvider: unary(() => ({ diagnostics: [] })),
    GetFunctions: unary(() => ({ diagnostics: [] })),

    ValidateDataResourceConfig: unary((request: DataSourceRequest) => {
      const config = decodeConfig(request);
      return { diagnostics: wire('diagnostics' in config ? config.diagnostics : validateConfig(config.value)) };
    }),

    ReadDataSource: unary(async (request: DataSourceRequest, call) => {
      const config = decodeConfig(request);
      if ('diagnostics' in config) return { diagnostics: wire(config.diagnostics) };
      const controller = new AbortController();
      running.add(controller);
      call.on('cancelled', () => controller.abort());
      try {
        const result = await readDataSource(config.value, controller.signal);
        return {
          state: result.state ? { msgpack: Buffer.from(encodeCty(result.state, DATA_SOURCE_TYPE)) } : null,
          diagnostics: wire(result.diagnostics),
        };
      } finally {
        running.delete(controller);
      }
    }),

    StopProvider: unary(() => {
      stopAll();
      return { Error: '' };
    }),
  };
  return { implementation, stopAll };
}

/** As the real provider (terraform-plugin-framework) announces them. */
const SERVER_CAPABILITIES = { plan_destroy: true, get_provider_schema_optional: true, move_resource_state: true };

function schema(attributes: readonly SchemaAttribute[], description: string): unknown {
  return {
    version: 0,
    block: {
      version: 0,
      description,
      description_kind: 'MARKDOWN',
      attributes: attributes.map((a) => ({
        name: a.name,
        type: Buffer.from(JSON.stringify(a.type)),
        description: a.description,
        description_kind: 'MARKDOWN',
        required: a.required === true,
        optional: a.optional === true,
        computed: a.computed === true,
      })),
    },
  };
}

function decodeConfig(request: DataSourceRequest): { value: CtyObject } | { diagnostics: Diagnostic[] } {
  const error = (summary: string, detail: string): { diagnostics: Diagnostic[] } => ({
    diagnostics: [{ severity: 'ERROR', summary, detail }],
  });
  if (request.type_name !== DATA_SOURCE_TYPE_NAME) {
    return error(
      'Data Source Type Not Found',
      `The data source type "${request.type_name}" is not served by this provider, which has only "${DATA_SOURCE_TYPE_NAME}".`,
    );
  }
  const bytes = request.config?.msgpack;
  if (!bytes || bytes.length === 0) {
    return error(
      'Unable to Read Configuration',
      'The request carried no msgpack-encoded configuration (this stand-in reads only msgpack, which Terraform sends).',
    );
  }
  try {
    return { value: decodeCty(bytes, DATA_SOURCE_TYPE) as CtyObject };
  } catch (e) {
    return error('Unable to Read Configuration', `The configuration could not be decoded: ${(e as Error).message}`);
  }
}

function wire(diagnostics: readonly Diagnostic[]): unknown[] {
  return diagnostics.map((d) => ({
    severity: d.severity,
    summary: d.summary,
    detail: d.detail,
    attribute: d.attribute ? { steps: [{ attribute_name: d.attribute }] } : null,
  }));
}

/** A unary handler from a (possibly async) function; a throw becomes an INTERNAL gRPC error with the message. */
function unary<Request>(
  handle: (request: Request, call: grpc.ServerUnaryCall<Request, unknown>) => unknown,
): grpc.handleUnaryCall<Request, unknown> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => handle(call.request, call))
      .then(
        (response) => callback(null, response),
        (e: unknown) => callback({ code: 13 /* INTERNAL */, details: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
      );
  };
}
