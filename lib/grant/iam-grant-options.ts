/**
 * What every grant construct accepts besides what it grants.
 */
export interface IamGrantOptions {
  /**
   * Whether `terraform plan` (and `cdktf diff`) compares this grant with
   * Google and warns when they differ (e.g. a member removed in the console),
   * naming the command that repairs it. Costs one read per policy per plan
   * and needs the `hashicorp/external` provider; see also
   * `GoogleIamGrants.of(stack).detectDrift` for a whole stack.
   * @default true
   */
  readonly detectDrift?: boolean;
}
