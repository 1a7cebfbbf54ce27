/**
 * Terraform, as far as a provider can tell it apart: the commands `terraform
 * apply` (optionally of a saved plan), `terraform plan` and `terraform
 * destroy`, each as the walks Terraform runs and the RPCs it sends in them,
 * in process, against a provider's resource types (lib/provider/framework
 * resource.ts), with the protocol layer's rules (lib/provider/protocol:
 * planning.ts, rpc/read-resource.ts, rpc/apply-resource-change.ts).
 *
 * - The static validation (every command but the apply of a saved plan):
 *   ValidateResourceConfig of every configured resource in an unconfigured
 *   process per provider configuration; an error fails the command.
 * - A plan walk (configured processes, one per provider configuration): for
 *   every address, ReadResource of its state objects (null: dropped), then,
 *   for a configured resource, ValidateResourceConfig and PlanResourceChange
 *   (Terraform validates again before every plan of a resource; prior: the
 *   refreshed object, or null; `requires_replace` on an attribute that
 *   changes, or a tainted prior, is a replacement: planned again as a
 *   create, then delete-then-create or create-before-destroy), and a destroy
 *   plan (PlanResourceChange with a null proposal) for every object the
 *   configuration no longer holds and every deposed one. Any error fails the
 *   command before anything is applied; the refresh is then not kept.
 * - The apply walk (new processes): every create and update validated and
 *   planned again with the prior object's private state (Terraform's "final plan", which
 *   must agree with the first where that was known), then
 *   ApplyResourceChange; at most 10 at once, in the order and with the
 *   delays a Schedule gives. Terraform's rules for what the state keeps: a
 *   create that fails with a state keeps it tainted, with none nothing; an
 *   update that fails keeps the state it returns (the prior when none); a
 *   delete that fails keeps the prior; create-before-destroy deposes the
 *   prior object first (restored when the create leaves nothing).
 * - `terraform destroy`: the static validation, a plan walk in normal mode
 *   (the pre-destroy refresh: its errors stop the destroy), a destroy plan
 *   walk, then an apply walk deleting every object.
 *
 * Every walk's processes end (ProviderProcess `end`) before the next walk's
 * start. What a provider does wrong in Terraform's eyes (a state holding
 * unknown values, a final plan or a result that contradicts the plan, a call
 * that throws) is a `violation` of the result, besides the error Terraform
 * would report.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { decodeCty, encodeCty, isWhollyKnown, type CtyObject, type CtyType } from '../../lib/provider/framework/cty';
import { Diagnostics, type Diagnostic } from '../../lib/provider/framework/diagnostics';
import { PrivateState } from '../../lib/provider/framework/private-state';
import type { CallContext, ResourceType, ValidationRequest } from '../../lib/provider/framework/resource';
import { schemaType, valueAttributes, type Attribute, type Block, type Schema } from '../../lib/provider/framework/schema';
import { sameValue } from '../../lib/provider/framework/value-equality';
import { planResourceChange } from '../../lib/provider/protocol/planning';
import type { TerraformCommand } from '../../lib/provider/protocol/terraform-command';

// ---- configuration and state ------------------------------------------------------------------

/** One resource block of the configuration (one instance: no count or for_each). */
export interface ResourceConfig {
  readonly type: string;
  /** Its provider configuration: 0 the default, others aliases (each a provider process of its own). */
  readonly alias: number;
  /** The configuration's value: every attribute of the schema, null when unset (as `configValue` builds it). */
  readonly value: CtyObject;
  /** `lifecycle { create_before_destroy = true }`. */
  readonly createBeforeDestroy?: boolean;
}

/** Resource blocks by address (`<type>.<name>`). */
export type Configuration = ReadonlyMap<string, ResourceConfig>;

/** One object in Terraform's state. */
export interface StateObject {
  readonly type: string;
  readonly alias: number;
  readonly value: CtyObject;
  /** The provider's private state, as its last ApplyResourceChange or ReadResource left it. */
  readonly private: Buffer;
  readonly tainted: boolean;
}

/** What the state holds at one address: its current object, and objects create-before-destroy deposed. */
export interface Instance {
  readonly current?: StateObject;
  readonly deposed: readonly StateObject[];
}

export type State = ReadonlyMap<string, Instance>;

export const EMPTY_STATE: State = new Map();

/**
 * A value as Terraform holds it for `schema`: every attribute present (null when unset), blocks as the
 * schema nests them (a SINGLE block null when absent, a LIST or SET an array), nested objects likewise.
 */
export function configValue(schema: Pick<Schema, 'attributes' | 'blocks'>, values: Readonly<Record<string, unknown>>): CtyObject {
  return fill(schema.attributes, schema.blocks ?? [], values);
}

function fill(attributes: readonly Attribute[], blocks: readonly Block[], values: Readonly<Record<string, unknown>>): CtyObject {
  const out: Record<string, unknown> = {};
  for (const attribute of attributes) {
    const value = values[attribute.name];
    if (value === undefined || value === null) out[attribute.name] = null;
    else if (attribute.nested) out[attribute.name] = nestedValue(attribute.nested.nesting, value, attribute.nested.attributes, []);
    else out[attribute.name] = value;
  }
  for (const block of blocks) {
    const value = values[block.name];
    if (value === undefined || value === null) out[block.name] = block.nesting === 'SINGLE' ? null : [];
    else out[block.name] = nestedValue(block.nesting, value, block.attributes, block.blocks ?? []);
  }
  return out as CtyObject;
}

function nestedValue(nesting: 'SINGLE' | 'LIST' | 'SET', value: unknown, attributes: readonly Attribute[], blocks: readonly Block[]) {
  const one = (v: unknown) => fill(attributes, blocks, v as Record<string, unknown>);
  return nesting === 'SINGLE' ? one(value) : (value as unknown[]).map(one);
}

// ---- the provider, as Terraform starts it -----------------------------------------------------

export type WalkName = 'validate' | 'plan' | 'plan-destroy' | 'apply';

/** One terraform command's run: the folder its provider processes share, what the command is. */
export interface Run {
  readonly folder: string;
  readonly command: TerraformCommand;
}

/** One provider process of a walk. */
export interface ProviderProcess<Context> {
  resource(typeName: string): ResourceType<Context>;
  /** The configured context (ConfigureProvider's); undefined in the static validation, which never configures. */
  readonly context?: Context;
  /**
   * What the definition keeps for the process's life, configured or not (ProviderDefinition `scope`, where the
   * definition has one): the protocol layer hands it to every ValidateResourceConfig (rpc/validate-resource-config.ts).
   */
  readonly scope?: unknown;
  /** The walk is over: Terraform ends the process. */
  end(): void;
}

export interface ProviderLauncher<Context> {
  start(run: Run, walk: WalkName, alias: number, configured: boolean): ProviderProcess<Context>;
}

/** The order Terraform sends a walk's requests in: sort keys of the nodes (by address), and a delay before each. */
export interface Schedule {
  readonly rank: readonly number[];
  readonly delays: readonly number[];
}

export const PROMPT: Schedule = { rank: [], delays: [] };

// ---- what a command reports -------------------------------------------------------------------

/** A diagnostic, with where Terraform got it. */
export interface Reported {
  readonly address: string;
  readonly walk: WalkName;
  readonly rpc: 'ValidateResourceConfig' | 'ReadResource' | 'PlanResourceChange' | 'ApplyResourceChange';
  readonly diagnostic: Diagnostic;
}

/** One planned change of an address. */
export type Change =
  | { readonly action: 'noop'; readonly address: string; readonly config: ResourceConfig; readonly prior: StateObject }
  | {
      readonly action: 'create';
      readonly address: string;
      readonly config: ResourceConfig;
      readonly planned: CtyObject;
    }
  | {
      readonly action: 'update';
      readonly address: string;
      readonly config: ResourceConfig;
      readonly prior: StateObject;
      readonly planned: CtyObject;
    }
  | {
      readonly action: 'replace';
      readonly address: string;
      readonly config: ResourceConfig;
      readonly prior: StateObject;
      /** The create's plan (planned again with a null prior). */
      readonly planned: CtyObject;
      readonly createFirst: boolean;
    }
  | { readonly action: 'delete'; readonly address: string; readonly prior: StateObject; readonly deposed: boolean };

export interface PlanResult {
  /** No error anywhere. */
  readonly ok: boolean;
  readonly changes: readonly Change[];
  /** The state as refreshed (what the apply walk starts from). */
  readonly refreshed: State;
  readonly reported: readonly Reported[];
  readonly violations: readonly string[];
}

export interface CommandResult {
  readonly ok: boolean;
  /** The state after the command (unchanged when it failed before applying). */
  readonly state: State;
  /** Whether the apply walk ran (anything may have been written). */
  readonly applied: boolean;
  /** The plan it applied or would have (the normal plan walk's, for a destroy). */
  readonly plan?: PlanResult;
  readonly reported: readonly Reported[];
  readonly violations: readonly string[];
}

/** What a plan walk found: the changes, and the state as refreshed. */
type Planned = Pick<PlanResult, 'changes' | 'refreshed'>;

/** What one command's walks report, in order. */
class Log {
  public readonly reported: Reported[] = [];
  public readonly violations: string[] = [];

  /** No error, and nothing Terraform would call the provider's bug. */
  public get ok(): boolean {
    return this.violations.length === 0 && !this.reported.some((r) => r.diagnostic.severity === 'ERROR');
  }

  public get result(): { readonly reported: readonly Reported[]; readonly violations: readonly string[] } {
    return { reported: [...this.reported], violations: [...this.violations] };
  }
}

/** Terraform's parallelism (`-parallelism`, default 10). */
const PARALLELISM = 10;

// ---- the model --------------------------------------------------------------------------------

export class TerraformModel<Context> {
  constructor(
    private readonly launcher: ProviderLauncher<Context>,
    /** Where each run's folder is made. */
    private readonly tempDir: string = os.tmpdir(),
  ) {}

  /** `terraform plan`: the static validation and a plan walk; the state is not changed. */
  public async plan(state: State, config: Configuration, schedule: Schedule = PROMPT): Promise<PlanResult> {
    return this.inRun({ destroys: false }, async (run) => {
      const log = new Log();
      const plan = await this.validateAndPlan(run, state, config, schedule, log);
      return { ok: plan !== undefined && log.ok, changes: plan?.changes ?? [], refreshed: plan?.refreshed ?? state, ...log.result };
    });
  }

  /**
   * `terraform apply`: validation, plan and apply walks in one run; with `savedPlan`, `terraform plan -out`
   * (validation and plan) in a run of its own, then `terraform apply plan.tfplan` (the apply walk alone).
   */
  public async apply(
    state: State,
    config: Configuration,
    options: { readonly savedPlan?: boolean; readonly planSchedule?: Schedule; readonly applySchedule?: Schedule } = {},
  ): Promise<CommandResult> {
    const log = new Log();
    const finish = async (run: Run, plan: Planned): Promise<CommandResult> => {
      await this.applyWalk(run, plan.refreshed, plan.changes, options.applySchedule ?? PROMPT, log).then((applied) => (state = applied));
      return { ok: log.ok, state, applied: true, plan: { ok: true, ...plan, ...log.result }, ...log.result };
    };
    const failed = (plan?: Planned): CommandResult => ({
      ok: false,
      state,
      applied: false,
      ...(plan ? { plan: { ok: false, ...plan, ...log.result } } : {}),
      ...log.result,
    });
    if (options.savedPlan) {
      const plan = await this.inRun({ destroys: false }, (run) => this.validateAndPlan(run, state, config, options.planSchedule, log));
      if (!plan || !log.ok) return failed(plan);
      return this.inRun({ destroys: false, savedPlan: 'plan.tfplan' }, (run) => finish(run, plan));
    }
    return this.inRun({ destroys: false }, async (run) => {
      const plan = await this.validateAndPlan(run, state, config, options.planSchedule, log);
      if (!plan || !log.ok) return failed(plan);
      await pause();
      return finish(run, plan);
    });
  }

  /** `terraform destroy`: validation, the plan walk in normal mode, the destroy plan walk, the apply walk deleting every object. */
  public async destroy(
    state: State,
    config: Configuration,
    options: { readonly planSchedule?: Schedule; readonly applySchedule?: Schedule } = {},
  ): Promise<CommandResult> {
    return this.inRun({ destroys: true }, async (run) => {
      const log = new Log();
      // The pre-destroy refresh: a plan in normal mode, whose errors stop the destroy.
      const refresh = await this.validateAndPlan(run, state, config, options.planSchedule, log);
      const failed = (): CommandResult => ({
        ok: false,
        state,
        applied: false,
        ...(refresh ? { plan: { ok: false, ...refresh, ...log.result } } : {}),
        ...log.result,
      });
      if (!refresh || !log.ok) return failed();
      await pause();
      const changes = await this.destroyPlanWalk(run, refresh.refreshed, log);
      if (!log.ok) return failed();
      await pause();
      const after = await this.applyWalk(run, refresh.refreshed, changes, options.applySchedule ?? PROMPT, log);
      return { ok: log.ok, state: after, applied: true, plan: { ok: true, ...refresh, ...log.result }, ...log.result };
    });
  }

  /** The static validation then, when it passed, a plan walk; undefined when the validation failed. */
  private async validateAndPlan(
    run: Run,
    state: State,
    config: Configuration,
    schedule: Schedule = PROMPT,
    log: Log,
  ): Promise<Planned | undefined> {
    await this.validateWalk(run, config, log);
    if (!log.ok) return undefined;
    await pause();
    return this.planWalk(run, state, config, schedule, log);
  }

  private async inRun<T>(command: TerraformCommand, body: (run: Run) => Promise<T>): Promise<T> {
    const folder = fs.mkdtempSync(path.join(this.tempDir, 'tf-run-'));
    try {
      return await body({ folder, command });
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }

  /** The processes of one walk, started as a provider configuration is first needed; `end` ends them all. */
  private processes(run: Run, walk: WalkName, configured: boolean) {
    const started = new Map<number, ProviderProcess<Context>>();
    return {
      of: (alias: number) => {
        let process = started.get(alias);
        if (!process) started.set(alias, (process = this.launcher.start(run, walk, alias, configured)));
        return process;
      },
      end: () => started.forEach((process) => process.end()),
    };
  }

  /** The static validation: ValidateResourceConfig of each resource in an unconfigured process. */
  private async validateWalk(run: Run, config: Configuration, log: Log): Promise<void> {
    const processes = this.processes(run, 'validate', false);
    const calls = new Calls<Context>(log, 'validate');
    try {
      for (const [address, resource] of [...config].sort(([a], [b]) => a.localeCompare(b))) {
        calls.validate(processes.of(resource.alias), address, resource, false);
      }
    } finally {
      processes.end();
    }
  }

  /** A plan walk in normal mode: refresh, validate and plan each address. */
  private async planWalk(run: Run, state: State, config: Configuration, schedule: Schedule, log: Log): Promise<Planned> {
    const processes = this.processes(run, 'plan', true);
    const refreshed = new Map<string, Instance>();
    const changes: Change[] = [];
    const calls = new Calls<Context>(log, 'plan');
    const addresses = [...new Set([...state.keys(), ...config.keys()])].sort();
    const node = async (address: string) => {
      const instance = state.get(address);
      const resource = config.get(address);
      // In the configuration: its provider configuration serves it; else the one that made it.
      const aliasOf = (object: StateObject) => resource?.alias ?? object.alias;
      let current: StateObject | undefined;
      if (instance?.current) {
        const object = instance.current;
        current = await calls.read(processes.of(aliasOf(object)), address, object);
      }
      const deposed: StateObject[] = [];
      for (const object of instance?.deposed ?? []) {
        const fresh = await calls.read(processes.of(aliasOf(object)), address, object);
        if (fresh) deposed.push(fresh);
      }
      if (current || deposed.length > 0) refreshed.set(address, { ...(current ? { current } : {}), deposed });
      for (const object of deposed) {
        if (await calls.planDestroy(processes.of(aliasOf(object)), address, object)) {
          changes.push({ action: 'delete', address, prior: object, deposed: true });
        }
      }
      if (!resource) {
        if (current && (await calls.planDestroy(processes.of(current.alias), address, current))) {
          changes.push({ action: 'delete', address, prior: current, deposed: false });
        }
        return;
      }
      const process = processes.of(resource.alias);
      if (current && !current.tainted) {
        const plan = await calls.plan(process, address, resource, current.value, current.private);
        if (!plan) return;
        const type = schemaType(process.resource(resource.type).schema);
        if (sameValue(plan.planned, current.value, type)) {
          changes.push({ action: 'noop', address, config: resource, prior: { ...current, alias: resource.alias } });
          return;
        }
        const attributes = objectAttributes(type);
        const replacing = plan.requiresReplace.some(
          (p) => p.length === 1 && !sameValue(current.value[p[0]] ?? null, plan.planned[p[0]] ?? null, attributes[p[0]]),
        );
        if (!replacing) {
          changes.push({ action: 'update', address, config: resource, prior: current, planned: plan.planned });
          return;
        }
        const create = await calls.plan(process, address, resource, null, plan.private);
        if (!create) return;
        changes.push({
          action: 'replace',
          address,
          config: resource,
          prior: current,
          planned: create.planned,
          createFirst: resource.createBeforeDestroy === true,
        });
        return;
      }
      // Nothing yet, or a tainted object: planned as a create (a tainted one then replaced).
      const create = await calls.plan(process, address, resource, null, Buffer.alloc(0));
      if (!create) return;
      changes.push(
        current
          ? {
              action: 'replace',
              address,
              config: resource,
              prior: current,
              planned: create.planned,
              createFirst: resource.createBeforeDestroy === true,
            }
          : { action: 'create', address, config: resource, planned: create.planned },
      );
    };
    try {
      await scheduled(
        addresses.map((address) => [() => node(address).then(() => true)]),
        schedule,
      );
    } finally {
      processes.end();
    }
    changes.sort((a, b) => a.address.localeCompare(b.address));
    return { changes, refreshed };
  }

  /** The destroy plan walk of `terraform destroy`: a destroy planned for every object (no refresh: the normal walk made it). */
  private async destroyPlanWalk(run: Run, state: State, log: Log): Promise<Change[]> {
    const processes = this.processes(run, 'plan-destroy', true);
    const calls = new Calls<Context>(log, 'plan-destroy');
    const changes: Change[] = [];
    try {
      for (const [address, instance] of [...state].sort(([a], [b]) => a.localeCompare(b))) {
        for (const [object, deposed] of [
          ...(instance.current ? [[instance.current, false] as const] : []),
          ...instance.deposed.map((d) => [d, true] as const),
        ]) {
          if (await calls.planDestroy(processes.of(object.alias), address, object)) {
            changes.push({ action: 'delete', address, prior: object, deposed });
          }
        }
      }
    } finally {
      processes.end();
    }
    return changes;
  }

  /** The apply walk: each change planned again and applied, at most PARALLELISM at once. */
  private async applyWalk(run: Run, refreshed: State, changes: readonly Change[], schedule: Schedule, log: Log): Promise<State> {
    const processes = this.processes(run, 'apply', true);
    const calls = new Calls<Context>(log, 'apply');
    // The apply of a saved plan: each process is told of the objects the plan leaves as they are before its first
    // change, as the protocol layer does from the plan file (lib/provider/protocol/provider-server.ts `unchangedTold`).
    const unchanged = run.command.savedPlan
      ? changes.flatMap((c) => (c.action === 'noop' ? [{ address: c.address, object: c.prior }] : []))
      : [];
    const told = new Map<ProviderProcess<Context>, Promise<void>>();
    const ready = (process: ProviderProcess<Context>) => {
      let telling = told.get(process);
      if (!telling) told.set(process, (telling = calls.unchanged(process, unchanged)));
      return telling;
    };
    const state = new Map<string, { current?: StateObject; deposed: StateObject[] }>(
      [...refreshed].map(([address, instance]) => [address, { ...instance, deposed: [...instance.deposed] }]),
    );
    const at = (address: string) => {
      let instance = state.get(address);
      if (!instance) state.set(address, (instance = { deposed: [] }));
      return instance;
    };
    const setCurrent = (address: string, object: StateObject | undefined) => {
      const instance = at(address);
      if (object) instance.current = object;
      else delete instance.current;
    };
    /** Plans `change`'s create or update again and applies it; whether it succeeded. */
    const createOrUpdate = async (address: string, resource: ResourceConfig, prior: StateObject | null, planned: CtyObject) => {
      const process = processes.of(resource.alias);
      const final = await calls.plan(process, address, resource, prior?.value ?? null, prior?.private ?? Buffer.alloc(0));
      if (!final) return false;
      const type = process.resource(resource.type);
      const inconsistent = changedKnown(planned, final.planned, schemaType(type.schema));
      if (inconsistent.length > 0) {
        const message = `Provider produced inconsistent final plan for ${address}: ${inconsistent.join(', ')} planned differently at apply`;
        log.violations.push(message);
        log.reported.push({
          address,
          walk: 'apply',
          rpc: 'PlanResourceChange',
          diagnostic: { severity: 'ERROR', summary: message, detail: '' },
        });
        return false;
      }
      await ready(process);
      const result = await calls.apply(process, address, resource.type, prior, final.planned, final.private);
      if (prior === null) {
        // A create: what it returned is kept, tainted when it failed.
        if (result.value)
          setCurrent(address, {
            type: resource.type,
            alias: resource.alias,
            value: result.value,
            private: result.private,
            tainted: result.failed,
          });
        else setCurrent(address, undefined);
      } else if (result.value) {
        setCurrent(address, { type: resource.type, alias: resource.alias, value: result.value, private: result.private, tainted: false });
      }
      if (!result.failed && result.value) {
        const differs = changedKnown(final.planned, result.value, schemaType(type.schema));
        if (differs.length > 0)
          log.violations.push(`Provider produced inconsistent result after apply for ${address}: ${differs.join(', ')}`);
      }
      return !result.failed;
    };
    const remove = async (address: string, prior: StateObject, deposed: boolean, alias = prior.alias) => {
      const process = processes.of(alias);
      await ready(process);
      const result = await calls.apply(process, address, prior.type, prior, null, prior.private);
      if (result.failed) {
        // A failed delete keeps the object (as the provider returned it: the prior).
        const kept: StateObject = { ...prior, ...(result.value ? { value: result.value } : {}), private: result.private };
        if (deposed) {
          const list = at(address).deposed;
          list.splice(list.indexOf(prior), 1, kept);
        } else setCurrent(address, kept);
        return false;
      }
      if (deposed) {
        const list = at(address).deposed;
        list.splice(list.indexOf(prior), 1);
      } else setCurrent(address, undefined);
      return true;
    };
    const steps = changes
      .filter((c) => c.action !== 'noop')
      .map((change): (() => Promise<boolean>)[] => {
        switch (change.action) {
          case 'create':
            return [() => createOrUpdate(change.address, change.config, null, change.planned)];
          case 'update':
            return [() => createOrUpdate(change.address, change.config, change.prior, change.planned)];
          case 'delete':
            return [() => remove(change.address, change.prior, change.deposed)];
          case 'replace':
            if (!change.createFirst) {
              return [
                () => remove(change.address, change.prior, false, change.config.alias),
                () => createOrUpdate(change.address, change.config, null, change.planned),
              ];
            }
            return [
              async () => {
                // Create-before-destroy: the prior object is deposed, the new one created; a create that leaves nothing restores it.
                const instance = at(change.address);
                const prior = instance.current!;
                delete instance.current;
                instance.deposed.push(prior);
                const created = await createOrUpdate(change.address, change.config, null, change.planned);
                if (!at(change.address).current) {
                  const list = at(change.address).deposed;
                  list.splice(list.indexOf(prior), 1);
                  setCurrent(change.address, prior);
                }
                return created;
              },
              () =>
                remove(
                  change.address,
                  at(change.address).deposed.find((d) => d === change.prior) ?? change.prior,
                  true,
                  change.config.alias,
                ),
            ];
        }
        throw new Error('noop filtered out');
      });
    // The no-op objects take the provider configuration the configuration gives them now.
    for (const change of changes) if (change.action === 'noop') setCurrent(change.address, change.prior);
    try {
      await scheduled(steps, schedule);
    } finally {
      processes.end();
    }
    const final = new Map<string, Instance>();
    for (const [address, instance] of [...state].sort(([a], [b]) => a.localeCompare(b))) {
      if (instance.current || instance.deposed.length > 0) final.set(address, instance);
    }
    return final;
  }
}

/** The RPCs one walk sends, each with fresh diagnostics reported under the address, and the protocol layer's rules. */
class Calls<Context> {
  constructor(
    private readonly log: Log,
    private readonly walk: WalkName,
  ) {}

  private context(process: ProviderProcess<Context>, privateBytes: Buffer): CallContext<Context> {
    return {
      provider: process.context!,
      signal: new AbortController().signal,
      private: PrivateState.decode(privateBytes),
      log: () => undefined,
    };
  }

  /** Runs a call; a throw is what Terraform shows as the plugin's error (and a fault of the provider). */
  private async guarded<T>(
    address: string,
    rpc: Reported['rpc'],
    diagnostics: Diagnostics,
    call: () => Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      const message = `${rpc} of ${address} threw: ${(error as Error)?.stack ?? String(error)}`;
      this.log.violations.push(message);
      diagnostics.error('Plugin error', message);
      return undefined;
    } finally {
      report(this.log.reported, address, this.walk, rpc, diagnostics);
    }
  }

  /** ValidateResourceConfig in a configured process; whether it passed. */
  public validate(process: ProviderProcess<Context>, address: string, resource: ResourceConfig, providerConfigured = true): boolean {
    const diagnostics = new Diagnostics();
    try {
      process.resource(resource.type).validate?.(resource.value, diagnostics, validationRequest(process, providerConfigured));
    } catch (error) {
      this.log.violations.push(`ValidateResourceConfig of ${address} threw: ${String(error)}`);
      diagnostics.error('Plugin error', String(error));
    }
    report(this.log.reported, address, this.walk, 'ValidateResourceConfig', diagnostics);
    return !diagnostics.hasError;
  }

  /** ReadResource: the refreshed object, null when gone (a failed read that returns nothing keeps the object). */
  public async read(process: ProviderProcess<Context>, address: string, object: StateObject): Promise<StateObject | undefined> {
    const type = process.resource(object.type);
    const context = this.context(process, object.private);
    const diagnostics = new Diagnostics();
    const next = await this.guarded(address, 'ReadResource', diagnostics, () => type.read(context, object.value, diagnostics));
    const value = next === undefined || (diagnostics.hasError && next === null) ? object.value : next;
    if (value === null) return undefined;
    if (!isWhollyKnown(value)) this.log.violations.push(`ReadResource of ${address} returned unknown values`);
    return { ...object, value: roundTrip(value, schemaType(type.schema)), private: context.private.encode() };
  }

  /**
   * Terraform's plan of a create or update (node_resource_abstract_instance.go `plan`, in the plan walk and again
   * in the apply walk): ValidateResourceConfig in the configured process, then PlanResourceChange; undefined when
   * either failed.
   */
  public async plan(
    process: ProviderProcess<Context>,
    address: string,
    resource: ResourceConfig,
    prior: CtyObject | null,
    privateBytes: Buffer,
  ): Promise<{ planned: CtyObject; requiresReplace: readonly (readonly string[])[]; private: Buffer } | undefined> {
    if (!this.validate(process, address, resource)) return undefined;
    const type = process.resource(resource.type);
    const context = this.context(process, privateBytes);
    const diagnostics = new Diagnostics();
    const proposed = proposedNewState(type.schema, prior, resource.value);
    const plan = await this.guarded(address, 'PlanResourceChange', diagnostics, () =>
      planResourceChange(type, { prior, proposed, config: resource.value }, diagnostics, context),
    );
    if (!plan || diagnostics.hasError || plan.planned === null) return undefined;
    return {
      planned: roundTrip(plan.planned, schemaType(type.schema)),
      requiresReplace: plan.requiresReplace,
      private: context.private.encode(),
    };
  }

  /** What the apply of a saved plan tells a process before its first change: each object the plan leaves as it is. */
  public async unchanged(
    process: ProviderProcess<Context>,
    objects: readonly { readonly address: string; readonly object: StateObject }[],
  ): Promise<void> {
    for (const { address, object } of objects) {
      const type = process.resource(object.type);
      const diagnostics = new Diagnostics();
      await this.guarded(address, 'ApplyResourceChange', diagnostics, () =>
        type.unchanged ? type.unchanged(this.context(process, object.private), object.value) : Promise.resolve(),
      );
    }
  }

  /** PlanResourceChange of a destroy (the provider hears of it: planDestroy); whether it passed. */
  public async planDestroy(process: ProviderProcess<Context>, address: string, object: StateObject): Promise<boolean> {
    const type = process.resource(object.type);
    const context = this.context(process, object.private);
    const diagnostics = new Diagnostics();
    await this.guarded(address, 'PlanResourceChange', diagnostics, () =>
      planResourceChange(type, { prior: object.value, proposed: null, config: null }, diagnostics, context),
    );
    return !diagnostics.hasError;
  }

  /** ApplyResourceChange, with the protocol layer's rules: a failed delete keeps prior, a failed update that returns null keeps prior. */
  public async apply(
    process: ProviderProcess<Context>,
    address: string,
    typeName: string,
    prior: StateObject | null,
    planned: CtyObject | null,
    privateBytes: Buffer,
  ): Promise<{ value: CtyObject | null; private: Buffer; failed: boolean }> {
    const type = process.resource(typeName);
    const context = this.context(process, privateBytes);
    const diagnostics = new Diagnostics();
    const value = await this.guarded(address, 'ApplyResourceChange', diagnostics, async () => {
      if (planned === null) {
        if (prior !== null) await type.delete(context, prior.value, diagnostics);
        return diagnostics.hasError ? prior!.value : null;
      }
      if (prior === null) return type.create(context, planned, diagnostics);
      const updated = await type.update(context, prior.value, planned, diagnostics);
      return diagnostics.hasError && updated === null ? prior.value : updated;
    });
    const kept = value === undefined ? (prior?.value ?? null) : value;
    if (kept !== null && !isWhollyKnown(kept)) this.log.violations.push(`ApplyResourceChange of ${address} returned unknown values`);
    return {
      value: kept === null ? null : roundTrip(kept, schemaType(type.schema)),
      private: context.private.encode(),
      failed: diagnostics.hasError,
    };
  }
}

/** ValidateResourceConfig's request, as the protocol layer makes it: whether the process is configured, and the definition's scope. */
function validationRequest<Context>(process: ProviderProcess<Context>, providerConfigured: boolean): ValidationRequest {
  const request: ValidationRequest & { readonly scope?: unknown } = {
    providerConfigured,
    ...(process.scope === undefined ? {} : { scope: process.scope }),
  };
  return request;
}

function report(reported: Reported[], address: string, walk: WalkName, rpc: Reported['rpc'], diagnostics: Diagnostics): void {
  for (const diagnostic of diagnostics.all) reported.push({ address, walk, rpc, diagnostic });
}

/**
 * Terraform's ProposedNewState: the configuration, with each computed attribute (Computed, or
 * Optional+Computed) the configuration leaves null taken from the prior state (null on create).
 */
export function proposedNewState(schema: Schema, prior: CtyObject | null, config: CtyObject): CtyObject {
  const out: Record<string, CtyObject[string]> = { ...config };
  for (const attribute of valueAttributes(schema)) {
    if (attribute.computed && (config[attribute.name] ?? null) === null) out[attribute.name] = prior?.[attribute.name] ?? null;
  }
  return out;
}

/** The attributes of `after` that differ from what `before` knew (its known attributes only). */
function changedKnown(before: CtyObject, after: CtyObject, type: CtyType): string[] {
  const attributes = objectAttributes(type);
  return Object.keys(attributes).filter((name) => {
    const known = before[name] ?? null;
    return isWhollyKnown(known) && !sameValue(known, after[name] ?? null, attributes[name]);
  });
}

function objectAttributes(type: CtyType): Readonly<Record<string, CtyType>> {
  if (typeof type === 'string' || type[0] !== 'object') throw new Error('not an object type');
  return type[1] as Readonly<Record<string, CtyType>>;
}

/** A value as Terraform hands it back: through msgpack with the schema's type (what does not conform throws). */
function roundTrip(value: CtyObject, type: CtyType): CtyObject {
  return decodeCty(encodeCty(value, type), type) as CtyObject;
}

/** Runs `nodes` (each a chain of steps; a step that answers false ends its chain), at most PARALLELISM steps at once, in the schedule's order. */
async function scheduled(nodes: readonly (readonly (() => Promise<boolean>)[])[], schedule: Schedule): Promise<void> {
  const order = [...nodes.keys()].sort((a, b) => (schedule.rank[a] ?? a) - (schedule.rank[b] ?? b) || a - b);
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    while (running >= PARALLELISM) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
  };
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  await Promise.all(
    order.map(async (index, position) => {
      await sleep(schedule.delays.length > 0 ? (schedule.delays[position % schedule.delays.length] ?? 0) : 0);
      for (const step of nodes[index]) {
        await acquire();
        let go: boolean;
        try {
          go = await step();
        } finally {
          release();
        }
        if (!go) return;
      }
    }),
  );
}

/** Between two walks: the next walk's processes start after the last one's ended (a millisecond later). */
function pause(): Promise<void> {
  return sleep(2);
}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
