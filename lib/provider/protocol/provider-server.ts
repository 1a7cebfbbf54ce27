/**
 * What every RPC handler of one provider process shares, as
 * terraform-plugin-framework's fwserver.Server does: the definition, its types
 * by name with their schemas' cty types (computed once), the configured
 * context and the running calls. The handlers, one file per RPC, are in rpc/.
 */
import { isWhollyKnown, type CtyObject, type CtyType } from '../framework/cty';
import { PrivateState } from '../framework/private-state';
import type { CallContext, DataSourceType, ProviderDefinition, ResourceType } from '../framework/resource';
import { schemaType, type Schema } from '../framework/schema';
import type { Logger } from './log';
import { ProtocolError } from './protocol-error';
import { ProviderState } from './provider-state';

/** As terraform-plugin-framework announces them, except MoveResourceState, which no type here supports. */
export const SERVER_CAPABILITIES = { plan_destroy: true, get_provider_schema_optional: true, move_resource_state: false };

/** A type with its schema's cty type. */
export interface Typed<T> {
  readonly definition: T;
  readonly type: CtyType;
}

/** The server of one provider process. */
export class ProviderServer<Context> {
  /** The configured context and the running calls. */
  public readonly state = new ProviderState<Context>();
  /** The provider block's cty type. */
  public readonly providerType: CtyType;
  /** The resource types by type name. */
  public readonly resources: ReadonlyMap<string, Typed<ResourceType<Context>>>;
  /** The data source types by type name. */
  public readonly dataSources: ReadonlyMap<string, Typed<DataSourceType<Context>>>;

  constructor(
    public readonly definition: ProviderDefinition<Context>,
    public readonly logger: Logger,
  ) {
    this.providerType = schemaType(definition.schema);
    this.resources = byTypeName(definition.resources);
    this.dataSources = byTypeName(definition.dataSources);
  }

  /** The resource type named in a request; an unknown name is a diagnostic. */
  public resource(typeName: string): Typed<ResourceType<Context>> {
    const found = this.resources.get(typeName);
    if (!found) throw ProtocolError.unknownType('resource', typeName, this.definition.name);
    return found;
  }

  /** The data source type named in a request; an unknown name is a diagnostic. */
  public dataSource(typeName: string): Typed<DataSourceType<Context>> {
    const found = this.dataSources.get(typeName);
    if (!found) throw ProtocolError.unknownType('data source', typeName, this.definition.name);
    return found;
  }

  /** The context of one call of a resource or data source of `typeName`: waits for ConfigureProvider. */
  public async callContext(
    signal: AbortSignal,
    typeName: string,
    privateState: PrivateState = PrivateState.decode(null),
  ): Promise<CallContext<Context>> {
    return {
      provider: await this.state.configuredContext(signal),
      signal,
      private: privateState,
      log: (level, message, fields = {}) => this.logger.log(level, message, { tf_resource_type: typeName, ...fields }),
    };
  }

  /** StopProvider, or Shutdown: aborts every running call and tells the definition to stop. */
  public stop(): void {
    this.state.stopAll();
    this.definition.stop?.();
  }
}

/** A state or result Terraform must get wholly known; anything else is the provider's error. */
export function checkKnown(value: CtyObject | null, what: string): void {
  if (value !== null && !isWhollyKnown(value)) throw ProtocolError.invalidResult(what, 'it holds values that are still unknown');
}

function byTypeName<T extends { readonly typeName: string; readonly schema: Schema }>(types: readonly T[]): Map<string, Typed<T>> {
  return new Map(types.map((definition) => [definition.typeName, { definition, type: schemaType(definition.schema) }]));
}
