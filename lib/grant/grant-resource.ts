import {
  TerraformResource, anyToHclTerraform, anyToTerraform,
  type TerraformResourceLifecycle, type LocalExecProvisioner,
} from 'cdktf';
import type { Construct } from 'constructs';

export interface GrantResourceConfig {
  readonly triggersReplace: string | object;
  readonly provisioners: LocalExecProvisioner[];
  readonly lifecycle?: TerraformResourceLifecycle;
}

/**
 * Terraform's built-in `terraform_data`, as cdktf's DataResource synthesizes
 * it, minus DataResource's synth-time check of the Terraform version: that
 * check spawns `terraform version` once per resource (about 40 ms each, 40 s
 * for 1,000 grants), and Terraform older than 1.4 refuses `terraform_data`
 * by itself at plan time.
 */
export class GrantResource extends TerraformResource {
  private readonly config: GrantResourceConfig;

  constructor(scope: Construct, id: string, config: GrantResourceConfig) {
    super(scope, id, {
      terraformResourceType: 'terraform_data',
      terraformGeneratorMetadata: { providerName: 'terraform' },
      provisioners: config.provisioners,
      lifecycle: config.lifecycle,
    });
    this.config = config;
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return {
      triggers_replace: anyToTerraform(this.config.triggersReplace),
    };
  }

  protected synthesizeHclAttributes(): { [name: string]: unknown } {
    return {
      triggers_replace: anyToHclTerraform(this.config.triggersReplace),
    };
  }
}
