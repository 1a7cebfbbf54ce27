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

  /**
   * Whether drift of this grant fails `terraform plan` (and `cdktf diff`)
   * instead of warning: the plan exits non-zero (also with
   * `-detailed-exitcode`) with the same report, so a scheduled CI plan
   * catches console edits. While a grant of the same policy has a change
   * pending, the comparison waits for the apply, which then fails if Google
   * still differs. See also `GoogleIamGrants.of(stack).failPlanOnDrift`.
   * Has no effect when `detectDrift` is false.
   * @default false
   */
  readonly failPlanOnDrift?: boolean;
}
