import { TerraformElement } from 'cdktf';

/** The Terraform name of every stack's repair handle: `terraform_data.google_iam_repair`. */
export const REPAIR_RESOURCE_NAME = 'google_iam_repair';

/**
 * `terraform_data.google_iam_repair`, an empty resource that every grant of
 * the stack names in `replace_triggered_by`: replacing it re-applies them all,
 * so `terraform apply -replace=terraform_data.google_iam_repair` repairs a
 * stack's drift whatever it is. Creating it (a new stack, or an upgrade of the
 * library) replaces nothing: Terraform triggers on updates and replacements
 * of the named resource only.
 *
 * Why a resource of its own rather than `-replace` of each grant: a grant's
 * address holds its key (a resource name and a role, often longer than a
 * terminal line, with double quotes), and cdktf-cli rewrites every address of
 * a construct it knows into `type.name (ConstructPath)[...]`, which Terraform
 * then refuses. This address is short, needs no quoting in a shell, and is
 * written without cdktf's construct metadata, so cdktf-cli leaves it as it is.
 */
export class GrantsRepair extends TerraformElement {
  public toTerraform(): any {
    return { resource: { terraform_data: { [REPAIR_RESOURCE_NAME]: {} } } };
  }

  public toHclTerraform(): any {
    return this.toTerraform();
  }
}
