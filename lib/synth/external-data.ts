import { TerraformDataSource, TerraformProvider, TerraformStack, Token, type ITerraformDependable } from 'cdktf';
import type { Construct } from 'constructs';

/** hashicorp/external, which runs a program at plan time and hands its JSON answer to Terraform. */
const EXTERNAL_PROVIDER = { source: 'hashicorp/external', versionConstraint: '>= 2.2.0', providerName: 'external' } as const;

/** The stack's `required_providers` entry for it. */
export const EXTERNAL_PROVIDER_REQUIREMENT = { source: EXTERNAL_PROVIDER.source, version: EXTERNAL_PROVIDER.versionConstraint } as const;
const PROVIDER_ID = 'GoogleIamExternalProvider';

/** Properties of an {@link ExternalData}. */
export interface ExternalDataConfig {
  /** The program and its arguments, run without a shell. */
  readonly program: string[];
  /** Handed to the program's stdin as one JSON object; values may be tokens. */
  readonly query: { [key: string]: string };
  /** Read only after these exist (and, when they change, during apply). */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * Terraform's `external` data source (hashicorp/external), written here so
 * that this library needs no prebuilt provider bindings: only
 * `program`, `query` and the `result` map of strings are used. The provider
 * is required (with a version constraint) in the stack, once.
 */
export class ExternalData extends TerraformDataSource {
  private readonly config: ExternalDataConfig;

  constructor(scope: Construct, id: string, config: ExternalDataConfig) {
    super(scope, id, {
      terraformResourceType: 'external',
      terraformGeneratorMetadata: {
        providerName: EXTERNAL_PROVIDER.providerName,
        providerVersionConstraint: EXTERNAL_PROVIDER.versionConstraint,
      },
      dependsOn: config.dependsOn,
    });
    this.config = config;
    requireExternalProvider(TerraformStack.of(this));
  }

  /** One value of the program's answer, as a Terraform expression. */
  public result(key: string): string {
    return Token.asString(this.interpolationForAttribute(`result[${JSON.stringify(key)}]`));
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return { program: this.config.program, query: this.config.query };
  }

  protected synthesizeHclAttributes(): { [name: string]: unknown } {
    return {
      program: { value: this.config.program, isBlock: false, type: 'list', storageClassType: 'stringList' },
      query: { value: this.config.query, isBlock: false, type: 'map', storageClassType: 'stringMap' },
    };
  }
}

/** `required_providers { external = { source = "hashicorp/external", version = ">= 2.2.0" } }`, once per stack. */
class ExternalProvider extends TerraformProvider {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      terraformResourceType: 'external',
      terraformGeneratorMetadata: {
        providerName: EXTERNAL_PROVIDER.providerName,
        providerVersionConstraint: EXTERNAL_PROVIDER.versionConstraint,
      },
      terraformProviderSource: EXTERNAL_PROVIDER.source,
    });
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return {};
  }
}

function requireExternalProvider(stack: TerraformStack): void {
  const has = stack.node.findAll().some((c) => c instanceof TerraformProvider && c.terraformResourceType === 'external');
  if (!has) new ExternalProvider(stack, PROVIDER_ID);
}
