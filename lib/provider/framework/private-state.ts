/**
 * Provider-private data kept with one resource object in Terraform's state:
 * terraform-plugin-framework's private state. Terraform stores the bytes
 * beside the object (never shown in plans or outputs), hands them back to the
 * next ReadResource and PlanResourceChange, and passes PlanResourceChange's
 * `planned_private` on to ApplyResourceChange. JSON values by key, so one
 * concern's key never clobbers another's.
 *
 * Note what Terraform does not carry: during apply it plans every change
 * again (with the values learned since) from the state's private data, so
 * what a plan-time PlanResourceChange puts here never reaches
 * ApplyResourceChange of a create.
 */
export class PrivateState {
  /** Decodes what Terraform sent: empty bytes (no private data yet) or a JSON object this class wrote. */
  public static decode(bytes: Uint8Array | null | undefined): PrivateState {
    if (!bytes || bytes.length === 0) return new PrivateState({});
    try {
      const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
      return new PrivateState(
        typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {},
      );
    } catch {
      // Bytes another version of the provider wrote in a shape this one cannot read: start afresh.
      return new PrivateState({});
    }
  }

  private constructor(private readonly values: Record<string, unknown>) {}

  public get(key: string): unknown {
    return this.values[key];
  }

  /** Sets `key`; undefined removes it. */
  public set(key: string, value: unknown): void {
    if (value === undefined) delete this.values[key];
    else this.values[key] = value;
  }

  /** The bytes for Terraform: empty when nothing is kept. */
  public encode(): Buffer {
    return Object.keys(this.values).length === 0 ? Buffer.alloc(0) : Buffer.from(JSON.stringify(this.values), 'utf8');
  }
}
