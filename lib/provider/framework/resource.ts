/**
 * The contract between the protocol layer (lib/provider/protocol, which
 * knows no resource) and the provider's resource types and data sources:
 * what a type declares and which calls it answers. terraform-plugin-framework
 * keeps one file per type; here one file serves one kind for every resource
 * type family (resources/iam-member.ts declares the member kind: its typed
 * model, schema, grant, refresh and import; resources/grant-resource.ts makes
 * each `googleiam_*_iam_member` from it and a family's descriptor, with the
 * calls every kind shares), as terraform-provider-google's tpgiamresource
 * serves every `google_*_iam_member` from one implementation.
 *
 * Values are decoded cty values (cty.ts): an object is a plain object holding
 * every attribute of its schema (null when unset), a list or set an array, an
 * unknown value an `Unknown`. Validation and planning see them so, unknowns
 * included; the other calls, whose values are known, decode them once into
 * the type's typed model (model.ts) and encode the state they return from it.
 *
 * Every call gets a `Diagnostics` to report to; a call that reports an
 * error has failed, and what it returned is then ignored except where said.
 */
import type { CtyObject } from './cty';
import type { Diagnostics } from './diagnostics';
import type { PrivateState } from './private-state';
import type { Schema } from './schema';

/** What every call of one configured provider process shares (its clients, its batcher): the provider's own type. */
export type ProviderContext = unknown;

/** Levels of Terraform's log (TF_LOG), as hclog names them. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** What one call gets besides its values: terraform-plugin-framework's request context. */
export interface CallContext<Context = ProviderContext> {
  readonly provider: Context;
  /** Cancelled when Terraform calls StopProvider (Ctrl-C): work not yet sent is abandoned, a write already sent is settled. */
  readonly signal: AbortSignal;
  /**
   * The object's private state: for ReadResource the state's, for
   * ApplyResourceChange the planned one; what the call leaves here is stored
   * with the new object. Import and data sources start empty and keep nothing.
   */
  readonly private: PrivateState;
  /** Writes a line to Terraform's log (shown under TF_LOG=<level> or finer), as tflog does. */
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

/**
 * When a ValidateResourceConfig comes. Terraform validates a configuration
 * statically (`terraform validate`, and before every plan, apply and destroy)
 * in a provider process it never configures, where only values the
 * configuration states are known (a variable or another resource's attribute
 * is unknown); then again inside every plan and apply walk, in the configured
 * process, once references are known. One of those walks is the refresh that
 * `terraform destroy` runs first, where an error stops the destroy.
 */
export interface ValidationRequest {
  /** True inside plan and apply walks (the provider is configured), false in the static validation. */
  readonly providerConfigured: boolean;
  /**
   * The provider block's values as Terraform last gave them to this process: ConfigureProvider's in a plan or
   * apply walk, ValidateProviderConfig's in the static validation (Terraform validates the provider block before
   * the resources that use it, in the same process). Values the static validation does not know yet are unknown.
   * @default - none given yet
   */
  readonly providerConfig?: CtyObject;
  /**
   * What the provider keeps for the process's whole life, configured or not
   * (ProviderDefinition `scope`): how the static validation, in a process
   * Terraform never configures, tells the later walks' processes what it saw.
   * @default - none
   */
  readonly scope?: unknown;
}

/** A planned change, as PlanResourceChange sees it. */
export interface PlanRequest {
  /** The state before; null when the resource is to be created. */
  readonly prior: CtyObject | null;
  /**
   * Terraform's proposal: the configuration, with computed attributes the
   * configuration leaves null taken from `prior` (or null on create). May hold
   * unknown values.
   */
  readonly proposed: CtyObject;
  readonly config: CtyObject;
}

/** What PlanResourceChange answers. */
export interface PlannedChange {
  /** The planned new state: known where the provider can tell, `UNKNOWN` where only apply will. */
  readonly planned: CtyObject;
  /** Attributes whose change makes Terraform replace the resource (destroy, then create). @default - none: every change is an update in place */
  readonly requiresReplace?: readonly (readonly string[])[];
}

/** One managed resource type, e.g. `googleiam_iam_member`. */
export interface ResourceType<Context = ProviderContext> {
  /** The full type name, with the provider's prefix. */
  readonly typeName: string;
  readonly schema: Schema;
  /** ValidateResourceConfig: checks what is known of the configuration (unknown values are skipped). */
  validate?(config: CtyObject, diagnostics: Diagnostics, request: ValidationRequest): void;
  /**
   * PlanResourceChange for a create or an update (a destroy is planned by the
   * protocol layer). Without it the protocol layer plans `proposed` with every
   * computed attribute unknown on create, and on an update every computed
   * attribute unknown when any configured attribute changes, else as before.
   * `context` (the configured provider, as terraform-plugin-framework's
   * ModifyPlan has it) is there whenever Terraform plans; a plan may read,
   * never write. The private state it gets is the prior state's, passed on as it is.
   */
  plan?(request: PlanRequest, diagnostics: Diagnostics, context?: CallContext<Context>): PlannedChange | Promise<PlannedChange>;
  /**
   * PlanResourceChange for a destroy (Terraform's `plan_destroy` capability):
   * the plan is null whatever this does; it may read, and note what the
   * destruction means (never write).
   */
  planDestroy?(prior: CtyObject, diagnostics: Diagnostics, context: CallContext<Context>): void | Promise<void>;
  /**
   * An object of the state that the run leaves as it is, in the apply of a
   * saved plan (`terraform apply plan.tfplan`), which calls the provider for
   * none of those (protocol/saved-plan.ts): told, with its state and private
   * data, before the process's first create, update or delete. It may read,
   * never write. (In any other apply, the plan walk of the same run planned
   * every resource of the configuration, unchanged ones included.)
   */
  unchanged?(context: CallContext<Context>, state: CtyObject): Promise<void>;
  /** Returns the new state; an error with no state leaves nothing in Terraform's state (the next apply creates again). */
  create(context: CallContext<Context>, planned: CtyObject, diagnostics: Diagnostics): Promise<CtyObject | null>;
  /** Refreshes `state` from the remote system; null: the object is gone, and Terraform drops it from state. */
  read(context: CallContext<Context>, state: CtyObject, diagnostics: Diagnostics): Promise<CtyObject | null>;
  /** Returns the new state; on an error, the state returned (e.g. `prior`, when nothing was changed) is what Terraform keeps. */
  update(context: CallContext<Context>, prior: CtyObject, planned: CtyObject, diagnostics: Diagnostics): Promise<CtyObject | null>;
  delete(context: CallContext<Context>, prior: CtyObject, diagnostics: Diagnostics): Promise<void>;
  /**
   * ImportResourceState: the state objects `id` names (usually one), holding
   * enough for `read` to fill the rest; Terraform then calls `read`, and a
   * null answer there is "Cannot import non-existent remote object".
   */
  importState(context: CallContext<Context>, id: string, diagnostics: Diagnostics): Promise<CtyObject[]>;
  /**
   * MoveResourceState (a `moved` block whose `from` is another type, or
   * another provider's): the state of this type that holds what `source`
   * held, without calling anything remote; Terraform then refreshes it
   * (ReadResource) and plans it as any other object. `target` is the new
   * object's private state (empty to start with). A source it cannot map is
   * an error naming it (the RPC gets no address to name); a null answer with
   * no error is a type that takes no moves. Without it, every move into the
   * type is refused.
   */
  moveFrom?(source: MoveSource, diagnostics: Diagnostics, target: PrivateState): CtyObject | null;
}

/** What MoveResourceState tells of the object a `moved` block moves (never its address). */
export interface MoveSource {
  /** The source's provider, as Terraform sends it (`registry.terraform.io/hashicorp/google`); OpenTofu may send a bare name. */
  readonly providerAddress: string;
  /** The source's type, e.g. `google_network_security_address_group_iam_member`. */
  readonly typeName: string;
  /** The version of the source's schema the state was written with. */
  readonly schemaVersion: number;
  /** The source's state as stored (Terraform's JSON state of the source's schema): its object, parsed. */
  readonly state: Readonly<Record<string, unknown>>;
  /** The source's private state, if this provider wrote it (another provider's bytes read as empty). */
  readonly private: PrivateState;
}

/** One data source type, e.g. `googleiam_iam_policy`. */
export interface DataSourceType<Context = ProviderContext> {
  readonly typeName: string;
  readonly schema: Schema;
  /** ValidateDataResourceConfig: checks what is known of the configuration. */
  validate?(config: CtyObject, diagnostics: Diagnostics): void;
  /** ReadDataSource: `config` with its computed attributes filled. Never called with unknown values in `config`. */
  read(context: CallContext<Context>, config: CtyObject, diagnostics: Diagnostics): Promise<CtyObject | null>;
}

/** A whole provider: its configuration, its types, and how it is configured. */
export interface ProviderDefinition<Context = ProviderContext> {
  /** The provider's local name, the prefix of every type name: `googleiam`. */
  readonly name: string;
  /** The provider block's schema. */
  readonly schema: Schema;
  readonly resources: readonly ResourceType<Context>[];
  readonly dataSources: readonly DataSourceType<Context>[];
  /** ValidateProviderConfig. */
  validate?(config: CtyObject, diagnostics: Diagnostics): void;
  /** Handed to every resource validation (`ValidationRequest.scope`), whether or not the process is configured. @default - none */
  readonly scope?: unknown;
  /**
   * ConfigureProvider: builds the context every later call gets. Called once
   * per process, before any resource or data source call that needs it.
   */
  configure(config: CtyObject, diagnostics: Diagnostics): Promise<Context>;
  /**
   * StopProvider (Ctrl-C) or the process shutting down: abandon work not yet
   * sent; the protocol layer also aborts every running call's signal.
   */
  stop?(): void;
}
