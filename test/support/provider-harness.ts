import { Diagnostics } from '../../lib/provider/framework/diagnostics';
import type { CtyObject } from '../../lib/provider/framework/cty';
import { PrivateState } from '../../lib/provider/framework/private-state';
import type { CallContext, DataSourceType, ResourceType } from '../../lib/provider/framework/resource';
import { googleIamProvider } from '../../lib/provider/google-iam-provider';
import type { GoogleIamContext } from '../../lib/provider/provider-context';
import type { RunDeclarations } from '../../lib/provider/policies/run-declarations';
import type { ProviderDefinition } from '../../lib/provider/framework/resource';
import type { Schema } from '../../lib/provider/framework/schema';

/**
 * The provider driven in process, as the protocol layer drives it: configured
 * once, then resource and data source calls with a CallContext, each with its
 * own Diagnostics. Values are the decoded cty objects the protocol layer hands over.
 */
export class ProviderHarness {
  /**
   * `run`: what the other provider processes of the same terraform run declare; by default none, as if
   * each harness were a run of its own (they all share this test process's parent).
   */
  public static async configure(
    env: NodeJS.ProcessEnv,
    config: Partial<Record<string, string>> = {},
    run?: RunDeclarations,
  ): Promise<ProviderHarness> {
    const definition = googleIamProvider(env, () => run);
    const diagnostics = new Diagnostics();
    const context = await definition.configure(
      {
        project: null,
        credentials: null,
        access_token: null,
        impersonate_service_account: null,
        eventual_consistency_timeout: null,
        ...config,
      },
      diagnostics,
    );
    if (diagnostics.hasError) throw new Error(JSON.stringify(diagnostics.all));
    return new ProviderHarness(definition, context);
  }

  private readonly abort = new AbortController();

  private constructor(
    public readonly definition: ProviderDefinition<GoogleIamContext>,
    public readonly context: GoogleIamContext,
  ) {}

  public get call(): CallContext<GoogleIamContext> {
    return { provider: this.context, signal: this.abort.signal, private: PrivateState.decode(null), log: () => undefined };
  }

  public resource(typeName: string): ResourceType<GoogleIamContext> {
    const type = this.definition.resources.find((r) => r.typeName === typeName);
    if (!type) throw new Error(`no resource type ${typeName}`);
    return type;
  }

  public dataSource(typeName: string): DataSourceType<GoogleIamContext> {
    const type = this.definition.dataSources.find((d) => d.typeName === typeName);
    if (!type) throw new Error(`no data source ${typeName}`);
    return type;
  }

  /** StopProvider: the definition's stop, and every running call's signal aborted, as the protocol layer does. */
  public stop(): void {
    this.definition.stop?.();
    this.abort.abort();
  }
}

/** Runs `call` with fresh diagnostics; returns both. */
export async function withDiagnostics<T>(
  call: (diagnostics: Diagnostics) => T | Promise<T>,
): Promise<{ value: T; diagnostics: Diagnostics }> {
  const diagnostics = new Diagnostics();
  const value = await call(diagnostics);
  return { value, diagnostics };
}

/**
 * Every attribute of a schema, null unless given, and every block, absent
 * unless given (null for a single one, an empty list or set otherwise): a
 * value as Terraform sends it.
 */
export function fullValue(type: { schema: Pick<Schema, 'attributes' | 'blocks'> }, values: CtyObject): CtyObject {
  const blocks = (type.schema.blocks ?? []).map((b) => [b.name, b.nesting === 'SINGLE' ? null : []]);
  return { ...Object.fromEntries(type.schema.attributes.map((a) => [a.name, null])), ...Object.fromEntries(blocks), ...values };
}
