/**
 * What every RPC handler of one provider process shares, as
 * terraform-plugin-framework's fwserver.Server does: the definition, its types
 * by name with their schemas' cty types (computed once), the configured
 * context and the running calls. The handlers, one file per RPC, are in rpc/.
 */
import { ctyFromJson, isWhollyKnown, type CtyObject, type CtyType } from '../framework/cty';
import { PrivateState } from '../framework/private-state';
import type { CallContext, DataSourceType, ProviderDefinition, ResourceType } from '../framework/resource';
import { schemaType, type Schema } from '../framework/schema';
import type { Logger } from './log';
import { ProtocolError } from './protocol-error';
import { ProviderState } from './provider-state';
import { unchangedObjects } from './saved-plan';
import { terraformCommandOfParent } from './terraform-command';

/** As terraform-plugin-framework announces them (MoveResourceState answered by the types that take moves: ResourceType `moveFrom`). */
export const SERVER_CAPABILITIES = { plan_destroy: true, get_provider_schema_optional: true, move_resource_state: true };

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

  /** The unchanged objects of a saved plan, told to their types (`unchangedTold`); undefined until the first change asks. */
  private unchanged?: Promise<string | undefined>;
  private unchangedProblemTold = false;

  constructor(
    public readonly definition: ProviderDefinition<Context>,
    public readonly logger: Logger,
    /** The saved plan terraform applies, if it does (terraform-command.ts). @default - read from terraform's command line when first needed */
    private readonly savedPlan: () => string | undefined = () => terraformCommandOfParent().savedPlan,
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

  /**
   * Before a create, update or delete: in the apply of a saved plan, every
   * object the plan leaves as it is told to its type once (ResourceType
   * `unchanged`, saved-plan.ts), whichever change comes first. Answers, to
   * the first caller only, why that could not be done, if it could not.
   */
  public async unchangedTold(signal: AbortSignal): Promise<string | undefined> {
    const problem = await (this.unchanged ??= this.tellUnchanged(signal));
    if (problem === undefined || this.unchangedProblemTold) return undefined;
    this.unchangedProblemTold = true;
    return problem;
  }

  private async tellUnchanged(signal: AbortSignal): Promise<string | undefined> {
    const file = this.savedPlan();
    if (file === undefined) return undefined;
    const told = [...this.resources.values()].filter(({ definition }) => definition.unchanged !== undefined);
    if (told.length === 0) return undefined;
    try {
      const objects = unchangedObjects(file, new Set(told.map(({ definition }) => definition.typeName)));
      for (const object of objects) {
        const { definition, type } = this.resources.get(object.typeName)!;
        const state = ctyFromJson(object.attributes, type, { dropUnknownAttributes: true }) as CtyObject;
        await definition.unchanged!(await this.callContext(signal, object.typeName, PrivateState.decode(object.private)), state);
      }
      this.logger.log('debug', `the saved plan ${file} leaves ${objects.length} object(s) of this provider as they are`);
      return undefined;
    } catch (error) {
      if (signal.aborted) throw error;
      const problem = `cannot read the saved plan ${file} (${(error as Error).message})`;
      this.logger.log('warn', problem);
      return problem;
    }
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
