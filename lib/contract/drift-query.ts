/** What the drift check of one policy hands the runner (strings only, as `external` requires). */
export interface DriftQuery {
  readonly service: string;
  readonly apiVersion: string;
  readonly getIamPolicyMethod?: string;
  readonly name: string;
  /** JSON: `[{ key, label, grant }]`, `grant` being the grant's JSON as the grants resource holds it. */
  readonly grants: string;
  /** The Terraform address of the grants resource. */
  readonly resource: string;
  /** The Terraform address of the resource that applies them: a grant whose instance there is missing or tainted has an apply pending. */
  readonly applied: string;
  /** The Terraform address whose replacement re-applies every grant of the stack: the repair. */
  readonly repair: string;
  /** The stack's name, for the cdktf form of the repair. */
  readonly stack: string;
  /**
   * `applied`: compare only the grants the Terraform state holds as configured
   * (the read is made while planning, before any pending change is applied);
   * `all`: compare every grant (the read waits for pending changes);
   * `state`: `grants` names only keys, and each grant (with the policy's name)
   * is taken from the state as the last apply left it: for a policy whose name
   * Terraform knows only after apply.
   */
  readonly compare: 'applied' | 'all' | 'state';
}
