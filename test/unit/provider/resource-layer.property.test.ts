/**
 * The promise of issue 49, at the resource layer: what Terraform drives. The
 * provider's real resource types (`googleiam_authorization_policy_iam_*` and
 * the generic `googleiam_iam_*` reaching the same policies through v1beta1
 * or v1, a grant's version changing between configurations; member, binding, policy, bulk members, member roles), with
 * their ValidateResourceConfig, PlanResourceChange (with the protocol
 * layer's rules), ApplyResourceChange and ReadResource, each with its
 * private state, driven by a model of Terraform's commands
 * (test/support/terraform-model.ts: `terraform apply`, of a saved plan or
 * not, `terraform plan`, `terraform destroy`, each as its walks, each walk's
 * provider processes one per provider alias and sharing the run's folder),
 * against the emulator's IAM store behind lagging reads, lost answers and
 * refused writes (test/support/lagging-policies.ts), with retry budgets short
 * enough that writes fail and outcomes stay unknown.
 *
 * A case: foreign grants seeded (someone else's), two or three
 * configurations applied with faults (one in five claiming contradictory
 * things of one grant, as synth refuses), a plain apply of the last one, a
 * destroy (sometimes with a contradictory configuration in place). Judged by
 * an oracle that knows nothing of batches, etags, declarations or private
 * state (`declared`, `conflicts` below):
 * 1. after a successful apply of C, Google holds for the test's principals
 *    exactly what C declares, per binding, whatever failed before;
 * 2. foreign principals are untouched unless an authoritative grant applied
 *    at some point covered them (absent when C's own does);
 * 3. the state then matches C (one untainted object per address, the
 *    configured values), and the next plan of C changes nothing;
 * 4. after a successful destroy nothing of the test's principals is left,
 *    and the state is empty;
 * 5. a configuration with contradictory claims fails at plan, with an error
 *    on each of the two resources, writing nothing and leaving the state as
 *    it was; a destroy with one in place succeeds;
 * and at every step: the provider grants nothing no configuration applied
 * declared, and does nothing Terraform would call a provider's bug.
 *
 * Size: RESOURCE_PROPERTY_RUNS cases (default below), in shards side by side;
 * a failure prints its seed and path: RESOURCE_PROPERTY_SEED (and
 * RESOURCE_PROPERTY_PATH) replay it, as far as timing allows (which write a
 * batch carries depends on timers); a failure is shrunk for at most
 * RESOURCE_PROPERTY_SHRINK_MS (60 s), RESOURCE_PROPERTY_SHRINK=0 reports it
 * unshrunk; RESOURCE_PROPERTY_VERBOSE=1 prints every step's outcome.
 */
import fc from 'fast-check';
import * as os from 'os';
import { comparisonKey } from '../../../lib/iam/principal';
import type { Policy } from '../../../lib/iam/types';
import type { ResourceType } from '../../../lib/provider/framework/resource';
import { schemaType } from '../../../lib/provider/framework/schema';
import { sameValue } from '../../../lib/provider/framework/value-equality';
import { googleIamProvider } from '../../../lib/provider/google-iam-provider';
import { PolicyBatchers } from '../../../lib/provider/policies/policy-batchers';
import { RunDeclarations } from '../../../lib/provider/policies/run-declarations';
import { createContext, type GoogleIamContext } from '../../../lib/provider/provider-context';
import { IAM_RESOURCE_TYPES } from '../../../lib/provider/resources/iam-types';
import { LaggingPolicies, type Misbehaviour } from '../../support/lagging-policies';
import {
  configValue,
  EMPTY_STATE,
  TerraformModel,
  type CommandResult,
  type Configuration as TerraformConfiguration,
  type ProviderLauncher,
  type Reported,
  type Schedule,
  type State,
} from '../../support/terraform-model';

/**
 * RESOURCE_PROPERTY_VERBOSE=1: each step's outcome on the console. RESOURCE_PROPERTY_OVERLAPS=0: no contradictory
 * configurations. RESOURCE_PROPERTY_FAULTS: the faults generated, of `stale,lost,refused` (default `lost,refused`).
 *
 * Stale reads are not in the default, because the provider does not yet hold its promise under them at the
 * resource layer (issue 49, left open; docs/design.md "Known gap"). A refresh trusts what a read answers once it is
 * not a version the grant's own write replaced. A read lagging further back, to a version from before any the
 * writing process had seen, looks like drift: the refresh drops the grant, or narrows an authoritative one, and a
 * delete later revokes less than Google holds. With `stale` added (RESOURCE_PROPERTY_FAULTS=stale,lost,refused),
 * about one run of 400 cases in two finds such a case, e.g. a member created cleanly on a policy with an earlier
 * version, then removed from the configuration while the refresh read that earlier version. The fixed cases (f) and
 * (j) cover the lagging reads the provider does handle: the empty policy answered soon after the grant's own write;
 * test/integration/provider/resources.test.ts one after a write whose outcome is unknown.
 */
const OVERLAPS = process.env.RESOURCE_PROPERTY_OVERLAPS !== '0';
const FAULT_KINDS = new Set((process.env.RESOURCE_PROPERTY_FAULTS ?? 'lost,refused').split(',').map((k) => k.trim()));
const VERBOSE = process.env.RESOURCE_PROPERTY_VERBOSE === '1';
const RUNS = Number(process.env.RESOURCE_PROPERTY_RUNS ?? 400);
/** How long a failure is shrunk (RESOURCE_PROPERTY_SHRINK_MS); RESOURCE_PROPERTY_SHRINK=0 reports it unshrunk. */
const SHRINK_MS = Number(process.env.RESOURCE_PROPERTY_SHRINK_MS ?? 60_000);
jest.setTimeout(Math.max(180_000, RUNS * 1_000));

const POLICIES = [
  'projects/p-123456/locations/global/authorizationPolicies/a',
  'projects/p-123456/locations/global/authorizationPolicies/b',
] as const;
/** The same policies named by the project's number: what Cloud Resource Manager would say (ProjectIds), stood in for here. */
const BY_NUMBER = POLICIES.map((name) => name.replace('projects/p-123456/', 'projects/123456789012/'));
const canonicalName = async (_service: string, name: string) => name.replace('projects/123456789012/', 'projects/p-123456/');
const ROLES = ['roles/networksecurity.viewer', 'roles/networksecurity.editor'] as const;
const CONDITION = { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
/** The test's own principals: alice, bob, carol, a group. */
const MEMBERS = ['user:alice@example.com', 'user:bob@example.com', 'user:carol@example.com', 'group:team@example.com'] as const;
const [ALICE, BOB, CAROL] = [0, 1, 2];
/** Someone else's principals, granted before the test starts. */
const FOREIGN = ['user:f1@example.com', 'user:f2@example.com'] as const;
/** Both serve the same policies: a grant whose version alone changes is an update in place that writes nothing. */
const GENERIC_VERSIONS = ['v1beta1', 'v1'] as const;
/** The typed types reach the policies through v1, the generic ones through v1beta1 or v1 (the grant's `version`). */
const FAMILIES = [
  { prefix: 'googleiam_authorization_policy_iam_', resource: () => ({}) },
  { prefix: 'googleiam_iam_', resource: (version: number) => ({ service: 'networksecurity', api_version: GENERIC_VERSIONS[version] }) },
] as const;
const SUFFIX = { member: 'member', binding: 'binding', policy: 'policy', members: 'members', memberRoles: 'member_roles' } as const;

// ---- the model of a configuration -------------------------------------------------------------

/** One binding's identity in the model: policy, role, and whether it carries CONDITION. */
interface Slot {
  readonly policy: number;
  readonly role: number;
  readonly conditional: boolean;
}
/**
 * `n`: the resource's name (`<kind>_<n>`); `family`: typed (0) or generic (1), part of the address; `alias`: its
 * provider configuration; `byNumber`: its name gives the project's number; `cbd`: create_before_destroy; `version`:
 * the API version a generic grant reaches its policy through (GENERIC_VERSIONS; not part of the address).
 */
type ModelGrant = {
  readonly n: number;
  readonly family: number;
  readonly alias: number;
  readonly byNumber: boolean;
  readonly cbd: boolean;
  readonly version: number;
} & (
  | { readonly kind: 'member'; readonly slot: Slot; readonly member: number }
  | { readonly kind: 'binding'; readonly slot: Slot; readonly members: readonly number[] }
  | {
      readonly kind: 'policy';
      readonly policy: number;
      readonly bindings: readonly { readonly role: number; readonly conditional: boolean; readonly members: readonly number[] }[];
    }
  | { readonly kind: 'members'; readonly policy: number; readonly entries: readonly { readonly slot: Slot; readonly member: number }[] }
  | { readonly kind: 'memberRoles'; readonly policy: number; readonly member: number; readonly roles: readonly Slot[] }
);
/** A configuration: its grants (each address once). */
type ModelConfiguration = readonly ModelGrant[];

const typeOf = (g: ModelGrant) => `${FAMILIES[g.family].prefix}${SUFFIX[g.kind]}`;
const addressOf = (g: ModelGrant) => `${typeOf(g)}.${g.kind}_${g.n}`;
const policyOf = (g: ModelGrant) => ('slot' in g ? g.slot.policy : g.policy);
const slotKey = (s: Slot) => `${s.policy}/${ROLES[s.role]}${s.conditional ? '?' : ''}`;

/** Every (binding, principal) a grant declares. */
function claims(g: ModelGrant): readonly { readonly slot: Slot; readonly member: number }[] {
  switch (g.kind) {
    case 'member':
      return [{ slot: g.slot, member: g.member }];
    case 'binding':
      return g.members.map((member) => ({ slot: g.slot, member }));
    case 'policy':
      return g.bindings.flatMap((b) => b.members.map((member) => ({ slot: { policy: g.policy, ...b }, member })));
    case 'members':
      return g.entries;
    case 'memberRoles':
      return g.roles.map((slot) => ({ slot, member: g.member }));
  }
}

/** The principals a grant names. */
const names = (g: ModelGrant): number[] => (g.kind === 'memberRoles' ? [g.member] : claims(g).map((c) => c.member));

/**
 * Whether two grants claim contradictory things, as synth refuses them (lib/grant/grant-registry.ts): a policy grant
 * owns its policy (nothing else beside it); a binding grant its binding (no other binding grant of it, no member
 * entry in it); a principal's roles every binding of that principal (no other grant names it there); a member entry
 * is declared once.
 */
function conflicts(g: ModelGrant, other: ModelGrant): boolean {
  if (policyOf(g) !== policyOf(other)) return false;
  // A bulk grant of no entries says nothing of any grant: it contradicts nothing.
  if ([g, other].some((x) => x.kind === 'members' && x.entries.length === 0)) return false;
  if (g.kind === 'policy' || other.kind === 'policy') return true;
  for (const [a, b] of [
    [g, other],
    [other, g],
  ]) {
    if (a.kind === 'memberRoles' && names(b).includes(a.member)) return true;
    if (a.kind === 'binding') {
      const owned = slotKey(a.slot);
      if ((b.kind === 'binding' && slotKey(b.slot) === owned) || claims(b).some((c) => slotKey(c.slot) === owned)) return true;
    }
  }
  const mine = new Set(claims(g).map((c) => `${slotKey(c.slot)}|${c.member}`));
  return claims(other).some((c) => mine.has(`${slotKey(c.slot)}|${c.member}`));
}

/** The pairs of addresses whose grants conflict. */
function conflictingPairs(config: ModelConfiguration): [string, string][] {
  const pairs: [string, string][] = [];
  config.forEach((g, i) => config.slice(i + 1).forEach((h) => conflicts(g, h) && pairs.push([addressOf(g), addressOf(h)])));
  return pairs;
}

/** Each address once, and no grant that conflicts with one before it. */
function valid(grants: readonly ModelGrant[]): ModelConfiguration {
  const config: ModelGrant[] = [];
  for (const g of grants) {
    if (config.some((other) => addressOf(other) === addressOf(g) || conflicts(g, other))) continue;
    config.push(g);
  }
  return config;
}

/** What a configuration declares of the test's principals: binding (slot key) → principals (comparison keys). */
function declared(config: ModelConfiguration): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const g of config) {
    for (const c of claims(g)) {
      const key = slotKey(c.slot);
      out.set(key, (out.get(key) ?? new Set()).add(comparisonKey(MEMBERS[c.member])));
    }
  }
  return out;
}

/** What the authoritative grants of a configuration cover: `binding <slot>` and `policy <index>`. */
function authoritative(config: ModelConfiguration): Set<string> {
  const out = new Set<string>();
  for (const g of config) {
    if (g.kind === 'binding') out.add(`binding ${slotKey(g.slot)}`);
    if (g.kind === 'policy') out.add(`policy ${g.policy}`);
  }
  return out;
}

const covers = (cover: ReadonlySet<string>, slot: Slot) => cover.has(`binding ${slotKey(slot)}`) || cover.has(`policy ${slot.policy}`);

// ---- the configuration as Terraform holds it --------------------------------------------------

const TYPES = new Map(IAM_RESOURCE_TYPES.map((t) => [t.typeName, t]));

function conditionOf(conditional: boolean) {
  return conditional ? CONDITION : null;
}

/** The resource block of a grant: the configuration's values, every attribute present. */
function resourceValues(g: ModelGrant): Record<string, unknown> {
  const name = (g.byNumber ? BY_NUMBER : POLICIES)[policyOf(g)];
  const common = { name, ...FAMILIES[g.family].resource(g.version) };
  switch (g.kind) {
    case 'member':
      return { ...common, role: ROLES[g.slot.role], member: MEMBERS[g.member], condition: conditionOf(g.slot.conditional) };
    case 'binding':
      return { ...common, role: ROLES[g.slot.role], members: g.members.map((m) => MEMBERS[m]), condition: conditionOf(g.slot.conditional) };
    case 'policy':
      return {
        ...common,
        bindings: g.bindings.map((b) => ({
          role: ROLES[b.role],
          members: b.members.map((m) => MEMBERS[m]),
          condition: conditionOf(b.conditional),
        })),
      };
    case 'members':
      return {
        ...common,
        grant: g.entries.map((e) => ({ role: ROLES[e.slot.role], member: MEMBERS[e.member], condition: conditionOf(e.slot.conditional) })),
      };
    case 'memberRoles':
      return {
        ...common,
        member: MEMBERS[g.member],
        grant: g.roles.map((r) => ({ role: ROLES[r.role], condition: conditionOf(r.conditional) })),
      };
  }
}

function terraformConfiguration(config: ModelConfiguration): TerraformConfiguration {
  return new Map(
    config.map((g) => {
      const type = TYPES.get(typeOf(g))!;
      return [
        addressOf(g),
        { type: type.typeName, alias: g.alias, value: configValue(type.schema, resourceValues(g)), createBeforeDestroy: g.cbd },
      ];
    }),
  );
}

// ---- the provider, as Terraform starts it -----------------------------------------------------

/** The test's misbehaviour of Google for one command, and its retry budget. */
interface Faults {
  readonly misbehaviour: Misbehaviour;
  /** Every retry budget of the command's processes (change, read, stale read), in ms. */
  readonly budgetMs: number;
}
const QUIET: Misbehaviour = { staleReads: 0, staleDepth: 1, lostAnswers: 0, refusedWrites: 0 };
/** No faults: budgets long enough for the run's own write conflicts. */
const CLEAN_BUDGET_MS = 20_000;
const retry = (maxElapsedMs: number) => ({ initialDelayMs: 1, maxDelayMs: 2, maxElapsedMs });

/**
 * Each provider process: its own definition (googleIamProvider, with the run's declarations and the command), and
 * when configured a context (createContext) whose batchers reach LaggingPolicies, with the command's budgets.
 */
function launcher(google: LaggingPolicies, budgetMs: () => number): ProviderLauncher<GoogleIamContext> {
  return {
    start(run, walk, alias, configured) {
      const declarations = new RunDeclarations(run.folder, `${walk}-alias-${alias}`, Date.now());
      const definition = googleIamProvider(
        {},
        () => declarations,
        () => run.command,
      );
      const types = new Map<string, ResourceType<GoogleIamContext>>(definition.resources.map((t) => [t.typeName, t]));
      let context: GoogleIamContext | undefined;
      if (configured) {
        const budget = budgetMs();
        const batching = { maxGatherMs: 4, idleGatherMs: 1 };
        const base = createContext({}, {}, batching, declarations, run.command);
        const policies = new PolicyBatchers(
          {
            endpointOf: (r) => google.endpoint(r.name.replace('projects/123456789012/', 'projects/p-123456/')),
            canonicalName,
            declarations,
          },
          { change: retry(budget), read: retry(budget), staleRead: retry(Math.min(budget, 2_000)), ...batching },
        );
        context = {
          ...base,
          policies,
          readRetry: { ...base.readRetry, ...retry(budget) },
          visibilityRetry: { ...base.visibilityRetry, ...retry(budget) },
        };
      }
      // Where the definition keeps something for the process's life (its run's declarations), the protocol layer hands it to validation.
      const scope = (definition as { readonly scope?: unknown }).scope;
      return {
        resource: (typeName) => types.get(typeName)!,
        ...(context ? { context } : {}),
        ...(scope === undefined ? {} : { scope }),
        end: () => declarations.end(),
      };
    },
  };
}

// ---- generators -------------------------------------------------------------------------------

const slot = fc.record({ policy: fc.nat(1), role: fc.nat(1), conditional: fc.boolean() });
const memberSet = fc.uniqueArray(fc.nat(MEMBERS.length - 1), { minLength: 1, maxLength: 3 });
const placing = {
  n: fc.nat(3),
  family: fc.nat(1),
  alias: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) }),
  byNumber: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  cbd: fc.boolean(),
  version: fc.nat(1),
};
const candidate: fc.Arbitrary<ModelGrant> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('member' as const), slot, member: fc.nat(MEMBERS.length - 1), ...placing }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('binding' as const), slot, members: memberSet, ...placing }) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        kind: fc.constant('members' as const),
        policy: fc.nat(1),
        entries: fc.uniqueArray(fc.record({ slot, member: fc.nat(MEMBERS.length - 1) }), {
          maxLength: 5,
          selector: (e) => `${e.slot.role}/${e.slot.conditional}/${e.member}`,
        }),
        ...placing,
      })
      .map((g) => ({ ...g, entries: g.entries.map((e) => ({ ...e, slot: { ...e.slot, policy: g.policy } })) })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        kind: fc.constant('memberRoles' as const),
        policy: fc.nat(1),
        member: fc.nat(MEMBERS.length - 1),
        roles: fc.uniqueArray(fc.record({ role: fc.nat(1), conditional: fc.boolean() }), {
          maxLength: 3,
          selector: (r) => `${r.role}/${r.conditional}`,
        }),
        ...placing,
      })
      .map((g) => ({ ...g, roles: g.roles.map((r) => ({ ...r, policy: g.policy })) })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('policy' as const),
      policy: fc.nat(1),
      bindings: fc.uniqueArray(fc.record({ role: fc.nat(1), conditional: fc.boolean(), members: memberSet }), {
        maxLength: 3,
        selector: (b) => `${b.role}/${b.conditional}`,
      }),
      ...placing,
    }),
  },
);
const configuration = fc.array(candidate, { maxLength: 6 }).map(valid);

/**
 * `base` with one grant more, at a name no valid configuration uses (4..7), that contradicts a grant of `base`
 * (the `pick`th): a candidate aimed at it (its policy, one of its bindings or principals), else a policy grant.
 */
function withOverlap(base: ModelConfiguration, aimed: readonly ModelGrant[], pick: number): ModelConfiguration {
  const residents = base.length > 0 ? base : aimed.slice(0, 1).map((g) => ({ ...g, n: 0 }));
  const target = residents[pick % residents.length];
  const policy = policyOf(target);
  const owned = claims(target);
  const entry = owned.length > 0 ? owned[pick % owned.length] : undefined;
  const principal = names(target).length > 0 ? names(target)[pick % names(target).length] : undefined;
  const aim = (g: ModelGrant): ModelGrant => {
    const n = 4 + (g.n % 4);
    switch (g.kind) {
      case 'member':
        return {
          ...g,
          n,
          ...(entry ? { slot: entry.slot, member: entry.member } : { slot: { ...g.slot, policy }, member: principal ?? g.member }),
        };
      case 'binding':
        return {
          ...g,
          n,
          slot: target.kind === 'binding' ? target.slot : (entry?.slot ?? { ...g.slot, policy }),
          members: principal === undefined || g.members.includes(principal) ? g.members : [...g.members, principal],
        };
      case 'members': {
        const added = entry ?? { slot: { ...g.entries[0]?.slot, role: 0, conditional: false, policy }, member: principal ?? 0 };
        const rest = g.entries
          .map((e) => ({ ...e, slot: { ...e.slot, policy } }))
          .filter((e) => slotKey(e.slot) !== slotKey(added.slot) || e.member !== added.member);
        return { ...g, n, policy, entries: [added, ...rest] };
      }
      case 'memberRoles':
        return { ...g, n, policy, member: principal ?? g.member, roles: g.roles.map((r) => ({ ...r, policy })) };
      case 'policy':
        return { ...g, n, policy };
    }
  };
  const extra =
    aimed.map(aim).find((g) => conflicts(g, target) && !residents.some((r) => addressOf(r) === addressOf(g))) ??
    ({ kind: 'policy', policy, bindings: [], n: 7, family: 0, alias: 0, byNumber: false, cbd: false, version: 0 } as const);
  return [...residents, extra];
}

const faults: fc.Arbitrary<Faults | undefined> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.record({
      misbehaviour: fc
        .record({
          staleReads: fc.constantFrom(0, 0.3, 0.6),
          staleDepth: fc.integer({ min: 1, max: 3 }),
          lostAnswers: fc.constantFrom(0, 0.2, 0.5, 1),
          refusedWrites: fc.constantFrom(0, 0.2, 0.5, 1),
        })
        .map((m) => ({
          ...m,
          staleReads: FAULT_KINDS.has('stale') ? m.staleReads : 0,
          lostAnswers: FAULT_KINDS.has('lost') ? m.lostAnswers : 0,
          refusedWrites: FAULT_KINDS.has('refused') ? m.refusedWrites : 0,
        })),
      budgetMs: fc.integer({ min: 5, max: 50 }),
    }),
  },
);
const applySchedule: fc.Arbitrary<Schedule> = fc.record({
  rank: fc.array(fc.nat(20), { maxLength: 14 }),
  delays: fc.array(fc.nat(4), { maxLength: 14 }),
});
const planSchedule: fc.Arbitrary<Schedule> = fc.record({
  rank: fc.array(fc.nat(20), { maxLength: 14 }),
  delays: fc.array(fc.nat(1), { maxLength: 14 }),
});

/** One terraform command of a case, with its configuration, how its requests go, and Google's faults meanwhile. */
interface Step {
  readonly command: 'apply' | 'destroy';
  readonly config: ModelConfiguration;
  /** `terraform plan -out` then `terraform apply plan.tfplan`: the plan walk in a run of its own. */
  readonly savedPlan: boolean;
  readonly plan: Schedule;
  readonly apply: Schedule;
  readonly faults?: Faults;
  /** A fixed case's expected outcome of this step, besides the oracle's judgement: success, and the writes Google took ('some': one or more). */
  readonly expected?: { readonly ok: boolean; readonly writes?: number | 'some' };
}
type Placed = readonly { readonly slot: Slot; readonly member: number }[];
interface Case {
  /** Someone else's grants, there before. */
  readonly foreign: Placed;
  /** The test's principals in versions the policy had a moment ago: what a stale read may still show. */
  readonly earlier: Placed;
  readonly steps: readonly Step[];
  /** Google's choices (which write is refused, which read lags). */
  readonly seed: number;
}

/** A configuration of a faulted step: a new one, or the last valid one again; one in five with an overlap added. */
const stepPlan = fc.record({
  fresh: configuration,
  again: fc.boolean(),
  overlap: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.record({ aimed: fc.array(candidate, { minLength: 1, maxLength: 4 }), pick: fc.nat(20) }) },
  ),
  savedPlan: fc.boolean(),
  plan: planSchedule,
  apply: applySchedule,
  faults,
});

const oneCase: fc.Arbitrary<Case> = fc
  .record({
    foreign: fc.array(fc.record({ slot, member: fc.nat(FOREIGN.length - 1) }), { maxLength: 4 }),
    earlier: fc.array(fc.record({ slot, member: fc.nat(MEMBERS.length - 1) }), { maxLength: 3 }),
    faulted: fc.array(stepPlan, { minLength: 2, maxLength: 3 }),
    final: fc.record({ savedPlan: fc.boolean(), plan: planSchedule, apply: applySchedule }),
    destroyOverlap: fc.oneof(
      { weight: 7, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.record({ aimed: fc.array(candidate, { minLength: 1, maxLength: 4 }), pick: fc.nat(20) }) },
    ),
    destroyPlan: planSchedule,
    destroyApply: applySchedule,
    seed: fc.integer(),
  })
  .map(({ foreign, earlier, faulted, final, destroyOverlap, destroyPlan, destroyApply, seed }) => {
    const steps: Step[] = [];
    let last: ModelConfiguration = [];
    faulted.forEach((s, i) => {
      const base = s.again && steps.length > 0 ? last : s.fresh;
      // The last faulted configuration is valid: the plain apply after it applies it again.
      const overlap = OVERLAPS && i < faulted.length - 1 ? s.overlap : undefined;
      const config = overlap ? withOverlap(base, overlap.aimed, overlap.pick) : base;
      if (!overlap) last = base;
      steps.push({
        command: 'apply',
        config,
        savedPlan: s.savedPlan,
        plan: s.plan,
        apply: s.apply,
        ...(s.faults ? { faults: s.faults } : {}),
      });
    });
    steps.push({ command: 'apply', config: last, ...final });
    const destroyWith = destroyOverlap && OVERLAPS ? withOverlap(last, destroyOverlap.aimed, destroyOverlap.pick) : last;
    steps.push({ command: 'destroy', config: destroyWith, savedPlan: false, plan: destroyPlan, apply: destroyApply });
    return { foreign, earlier, steps, seed };
  });

// ---- the oracle -------------------------------------------------------------------------------

/** Google's policies as the model sees them: binding (slot key) → principals (comparison keys) among `who`. */
function holdings(google: LaggingPolicies, who: readonly string[]): Map<string, Set<string>> {
  const mine = new Set(who.map(comparisonKey));
  const out = new Map<string, Set<string>>();
  POLICIES.forEach((name, index) => {
    for (const b of google.current(name).bindings ?? []) {
      const key = slotKey({ policy: index, role: ROLES.indexOf(b.role as (typeof ROLES)[number]), conditional: b.condition !== undefined });
      for (const m of b.members ?? []) {
        if (mine.has(comparisonKey(m))) out.set(key, (out.get(key) ?? new Set()).add(comparisonKey(m)));
      }
    }
  });
  return out;
}

function show(bindings: ReadonlyMap<string, ReadonlySet<string>>): Record<string, string[]> {
  const shown: [string, string[]][] = [...bindings].filter(([, m]) => m.size > 0).map(([k, m]) => [k, [...m].sort()]);
  return Object.fromEntries(shown.sort(([a], [b]) => a.localeCompare(b)));
}

function writes(google: LaggingPolicies): number {
  return POLICIES.reduce((sum, name) => sum + google.store.writes(name).length, 0);
}

/** What is wrong with `state` as the state of a successful apply of `config`: each object's differences. */
function stateDifferences(state: State, config: TerraformConfiguration): string[] {
  const problems: string[] = [];
  for (const address of new Set([...state.keys(), ...config.keys()])) {
    const instance = state.get(address);
    const resource = config.get(address);
    if (!resource) {
      problems.push(`${address}: in the state, not in the configuration`);
      continue;
    }
    const current = instance?.current;
    if (!current) {
      problems.push(`${address}: not in the state`);
      continue;
    }
    if (current.tainted) problems.push(`${address}: tainted`);
    if (instance.deposed.length > 0) problems.push(`${address}: ${instance.deposed.length} deposed object(s)`);
    const type = TYPES.get(resource.type)!;
    const [, attributes] = schemaType(type.schema) as readonly ['object', Readonly<Record<string, Parameters<typeof sameValue>[2]>>];
    for (const [name, attributeType] of Object.entries(attributes)) {
      if (name === 'id' || name === 'etag') continue;
      const wanted = name === 'missing_grants' ? [] : (resource.value[name] ?? null);
      if (!sameValue(current.value[name] ?? null, wanted, attributeType)) {
        problems.push(`${address}: ${name} is ${JSON.stringify(current.value[name])}, configured ${JSON.stringify(wanted)}`);
      }
    }
  }
  return problems.sort();
}

const errorsOf = (reported: readonly Reported[]) => reported.filter((r) => r.diagnostic.severity === 'ERROR');
const describeErrors = (reported: readonly Reported[]) =>
  errorsOf(reported).map((r) => `${r.address} (${r.walk} ${r.rpc}): ${r.diagnostic.summary}: ${r.diagnostic.detail.slice(0, 300)}`);

/** Asserts with the step named in the failure. */
function check(where: string, what: string, actual: unknown, expected: unknown): void {
  expect({ where, what, actual }).toEqual({ where, what, actual: expected });
}

/** What the cases of a run went through: that the faults really make writes fail, outcomes stay unknown, overlaps come. */
const seen = {
  cases: 0,
  faultedApplies: 0,
  faultedAppliesFailed: 0,
  faultedAppliesSucceeded: 0,
  taintedOrDeposed: 0,
  refusedOverlaps: 0,
  destroysWithOverlap: 0,
  successfulAppliesJudged: 0,
  /** Successful applies of a saved plan, judged as the others. */
  savedPlansJudged: 0,
};

/** Runs one case: every step, each judged by the oracle. */
async function runCase(c: Case): Promise<void> {
  const misbehaviour: { -readonly [K in keyof Misbehaviour]: Misbehaviour[K] } = { ...QUIET };
  let budgetMs = CLEAN_BUDGET_MS;
  const google = new LaggingPolicies(misbehaviour, c.seed);
  const bindingsOf = (placed: Placed, who: readonly string[], index: number): NonNullable<Policy['bindings']> =>
    placed
      .filter((p) => p.slot.policy === index)
      .map((p) => ({ role: ROLES[p.slot.role], members: [who[p.member]], ...(p.slot.conditional ? { condition: CONDITION } : {}) }));
  POLICIES.forEach((name, index) => {
    const bindings = bindingsOf(c.foreign, FOREIGN, index);
    const then = [...bindings, ...bindingsOf(c.earlier, MEMBERS, index)];
    google.add(
      name,
      bindings.length ? { version: 3, bindings } : undefined,
      then.length > bindings.length ? [{ version: 3, bindings: then }] : [],
    );
  });
  const terraform = new TerraformModel(
    launcher(google, () => budgetMs),
    os.tmpdir(),
  );
  /** What every configuration whose apply walk ran covered authoritatively, and declared. */
  const everCovered = new Set<string>();
  const everDeclared = new Set<string>();
  let state: State = EMPTY_STATE;
  seen.cases++;

  for (const [index, step] of c.steps.entries()) {
    const where = `step ${index + 1}/${c.steps.length}: terraform ${step.command}${step.savedPlan ? ' (saved plan)' : ''}${step.faults ? ` with faults ${JSON.stringify(step.faults)}` : ''} of ${step.config.map(addressOf).join(', ') || 'nothing'}`;
    const config = terraformConfiguration(step.config);
    const pairs = conflictingPairs(step.config);
    const writesBefore = writes(google);
    const stateBefore = state;
    Object.assign(misbehaviour, step.faults?.misbehaviour ?? QUIET);
    budgetMs = step.faults?.budgetMs ?? CLEAN_BUDGET_MS;
    let result: CommandResult;
    try {
      result =
        step.command === 'apply'
          ? await terraform.apply(state, config, { savedPlan: step.savedPlan, planSchedule: step.plan, applySchedule: step.apply })
          : await terraform.destroy(state, config, { planSchedule: step.plan, applySchedule: step.apply });
    } finally {
      Object.assign(misbehaviour, QUIET);
      budgetMs = CLEAN_BUDGET_MS;
    }
    state = result.state;
    if (VERBOSE) {
      console.log(
        `${where}\n  ok: ${result.ok}, applied: ${result.applied}, writes: ${writes(google) - writesBefore}\n` +
          `  changes: ${(result.plan?.changes ?? []).map((change) => `${change.action} ${change.address}`).join(', ')}\n` +
          `  diagnostics:\n${result.reported.map((r) => `    ${r.diagnostic.severity} ${r.address} (${r.walk} ${r.rpc}): ${r.diagnostic.summary}: ${r.diagnostic.detail}`).join('\n')}\n` +
          `  state: ${JSON.stringify([...state].map(([address, i]) => ({ address, tainted: i.current?.tainted, deposed: i.deposed.length, value: i.current?.value })))}\n` +
          `  Google: ${JSON.stringify(show(holdings(google, [...MEMBERS, ...FOREIGN])))}`,
      );
    }
    check(where, 'what Terraform would call a bug of the provider', result.violations, []);
    if (step.expected) {
      const taken = writes(google) - writesBefore;
      const counted = step.expected.writes === 'some' && taken > 0 ? 'some' : taken;
      const outcome = { ok: result.ok, ...(step.expected.writes === undefined ? {} : { writes: counted }) };
      check(where, 'the outcome the fixed case expects', outcome, step.expected);
    }
    if (step.command === 'apply' && step.faults && pairs.length === 0) {
      seen.faultedApplies++;
      if (result.ok) seen.faultedAppliesSucceeded++;
      else if (result.applied) seen.faultedAppliesFailed++;
    }
    if ([...state.values()].some((i) => i.current?.tainted || i.deposed.length > 0)) seen.taintedOrDeposed++;
    if (step.command === 'destroy' && pairs.length > 0) seen.destroysWithOverlap++;
    if (result.applied && step.command === 'apply') {
      authoritative(step.config).forEach((a) => everCovered.add(a));
      for (const [key, members] of declared(step.config)) members.forEach((m) => everDeclared.add(`${key}|${m}`));
    }

    // At every step: nothing granted that no applied configuration declared; foreign principals no grant covered, untouched.
    const held = holdings(google, MEMBERS);
    const undeclared = [...held].flatMap(([key, members]) =>
      [...members].filter((m) => !everDeclared.has(`${key}|${m}`)).map((m) => `${key}: ${m}`),
    );
    check(where, "the test's principals granted what no applied configuration declared", undeclared, []);
    const foreignHeld = holdings(google, FOREIGN);
    const isHeld = (p: Placed[number]) => foreignHeld.get(slotKey(p.slot))?.has(comparisonKey(FOREIGN[p.member])) === true;
    const lost = c.foreign.filter((p) => !covers(everCovered, p.slot) && !isHeld(p)).map((p) => `${slotKey(p.slot)}: ${FOREIGN[p.member]}`);
    check(where, 'foreign grants no authoritative grant ever covered, lost', lost, []);

    if (step.command === 'apply' && pairs.length > 0) {
      // 5. Contradictory claims: refused at plan, on both resources of each pair; nothing written, the state as it was.
      const failedAt = new Set(errorsOf(result.reported).map((r) => r.address));
      check(where, 'the plan of contradictory claims fails', { ok: result.ok, applied: result.applied }, { ok: false, applied: false });
      const unrefused = pairs
        .filter((pair) => !pair.every((a) => failedAt.has(a)))
        .map(([a, b]) => `${a} / ${b}: error on ${[a, b].filter((x) => failedAt.has(x)).join(', ') || 'neither'}`);
      check(where, 'each resource of a contradictory pair has an error diagnostic', unrefused, []);
      check(where, 'writes of a refused configuration', writes(google) - writesBefore, 0);
      check(where, 'the state after a refused configuration is unchanged', state === stateBefore, true);
      seen.refusedOverlaps++;
      continue;
    }
    if (!step.faults) check(where, 'the errors of a command Google does not disturb', describeErrors(result.reported), []);
    if (!result.ok) continue;

    if (step.command === 'destroy') {
      // 4. Nothing of the test's principals left, nothing in the state.
      check(where, "the test's principals left after destroy", show(holdings(google, MEMBERS)), {});
      check(where, 'the state after destroy', [...state.keys()], []);
      continue;
    }
    seen.successfulAppliesJudged++;
    // 1. Exactly what the configuration declares, a saved plan's apply included (which sees no unchanged resource
    // but through the plan file: the delete of an old address, or of a deposed object, spares what they hold).
    const wanted = declared(step.config);
    if (step.savedPlan) seen.savedPlansJudged++;
    check(where, "Google's grants of the test's principals after a successful apply", show(held), show(wanted));
    // 2. Foreign principals the configuration's own authoritative grants cover: gone.
    const mine = authoritative(step.config);
    const kept = c.foreign.filter((p) => covers(mine, p.slot) && isHeld(p)).map((p) => `${slotKey(p.slot)}: ${FOREIGN[p.member]}`);
    check(where, "foreign grants the configuration's authoritative grants cover, kept", kept, []);
    // 3. The state is the configuration, and the next plan (no faults) changes nothing.
    check(where, 'the state after a successful apply, against the configuration', stateDifferences(state, config), []);
    const next = await terraform.plan(state, config);
    check(where, 'the next plan: what Terraform would call a bug of the provider', next.violations, []);
    check(where, 'the next plan: errors', describeErrors(next.reported), []);
    const changes = next.changes
      .filter((change) => change.action !== 'noop')
      .map((change) => {
        const planned = 'planned' in change ? change.planned : null;
        const prior = 'prior' in change ? change.prior.value : null;
        const differs = planned && prior ? Object.keys(planned).filter((k) => JSON.stringify(planned[k]) !== JSON.stringify(prior[k])) : [];
        return `${change.address}: ${change.action}${differs.length ? ` (${differs.map((k) => `${k}: ${JSON.stringify(prior?.[k])} → ${JSON.stringify(planned?.[k])}`).join('; ')})` : ''}`;
      });
    check(where, 'the next plan after a successful apply (a refresh, then a plan of the same configuration)', changes, []);
  }
}

const property = fc.asyncProperty(oneCase, runCase);

/**
 * The property, with a budget for shrinking: once a case has failed, shrinking goes on for `shrinkMs`, then every
 * further candidate passes, so fast-check reports the smallest failure found by then (a case takes up to a second,
 * and shrinking one can take minutes).
 */
function withShrinkBudget(shrinkMs: number) {
  let until: number | undefined;
  return fc.asyncProperty(oneCase, async (c) => {
    if (until !== undefined && Date.now() > until) return;
    try {
      await runCase(c);
    } catch (error) {
      until ??= Date.now() + shrinkMs;
      throw error;
    }
  });
}

// ---- the fixed cases --------------------------------------------------------------------------

const at = (policy: number, role = 0, conditional = false): Slot => ({ policy, role, conditional });
const placed = { family: 0, alias: 0, byNumber: false, cbd: false, version: 0 };
const member = (n: number, s: Slot, m: number): ModelGrant => ({ kind: 'member', slot: s, member: m, n, ...placed });
const binding = (n: number, s: Slot, members: number[]): ModelGrant => ({ kind: 'binding', slot: s, members, n, ...placed });
const bulk = (n: number, policy: number, entries: [Slot, number][]): ModelGrant => ({
  kind: 'members',
  policy,
  entries: entries.map(([s, m]) => ({ slot: s, member: m })),
  n,
  ...placed,
});
const memberRoles = (n: number, policy: number, m: number, roles: Slot[]): ModelGrant => ({
  kind: 'memberRoles',
  policy,
  member: m,
  roles,
  n,
  ...placed,
});
const plain = { savedPlan: false, plan: { rank: [], delays: [] }, apply: { rank: [], delays: [] } };
const applied = (config: ModelConfiguration, faults?: Faults): Step => ({
  command: 'apply',
  config,
  ...plain,
  ...(faults ? { faults } : {}),
});
const destroyed = (config: ModelConfiguration): Step => ({ command: 'destroy', config, ...plain });
const everyWriteRefused: Faults = { misbehaviour: { ...QUIET, refusedWrites: 1 }, budgetMs: 10 };
const everyAnswerLost: Faults = { misbehaviour: { ...QUIET, lostAnswers: 1 }, budgetMs: 10 };
const fixed = (steps: Step[], foreign: Placed = [{ slot: at(0), member: 0 }], seed = 1): Case => ({ foreign, earlier: [], steps, seed });

const FIVE = bulk(0, 0, [
  [at(0, 0), ALICE],
  [at(0, 0), BOB],
  [at(0, 1), CAROL],
  [at(0, 0, true), 3],
  [at(0, 1), ALICE],
]);
const THREE = bulk(0, 0, [
  [at(0, 0), ALICE],
  [at(0, 0), BOB],
  [at(0, 1), CAROL],
]);
const BULK_A = bulk(0, 0, [
  [at(0, 0), ALICE],
  [at(0, 1), BOB],
]);
const BULK_B = bulk(1, 0, [
  [at(0, 1), BOB],
  [at(0, 1), CAROL],
]);
const MEMBERS_AB = bulk(0, 0, [
  [at(0, 1), ALICE],
  [at(0, 1), BOB],
]);
const ALICE_VIEWER = memberRoles(0, 0, ALICE, [at(0, 0)]);
const CAROL_VIEWERS = binding(0, at(0, 0), [CAROL]);
const ALICE_AND_BOB = [memberRoles(0, 0, ALICE, [at(0, 0)]), memberRoles(1, 0, BOB, [at(0, 0), at(0, 1)])];

const POLICY_A_ALICE: ModelGrant = {
  kind: 'policy',
  policy: 0,
  bindings: [{ role: 0, conditional: false, members: [ALICE] }],
  n: 0,
  ...placed,
};
const EMPTY_POLICY_A: ModelGrant = { kind: 'policy', policy: 0, bindings: [], n: 7, ...placed };
/** Reads lag 6 times in 10; with seed 6 Google's first choice is a lagging read, its second a current one. */
const LAGGING_THEN_CURRENT: Faults = { misbehaviour: { ...QUIET, staleReads: 0.6, staleDepth: 1 }, budgetMs: 5 };
/** 9 writes in 10 refused; with seed 533 the first write goes through and the next 40 are refused. */
const FIRST_WRITE_ONLY: Faults = { misbehaviour: { ...QUIET, refusedWrites: 0.9 }, budgetMs: 10 };
const refusedThenAlone = (pair: ModelGrant[]): Step[] => [applied(pair), applied(pair.slice(0, 1)), destroyed(pair.slice(0, 1))];
const lostWhileLagging = (g: ModelGrant): Case =>
  fixed([applied([g]), applied([], LAGGING_THEN_CURRENT), applied([]), destroyed([])], [], 6);
const MOVED_FROM = member(0, at(0, 0), ALICE);
const MOVED_TO: ModelGrant = { ...member(1, at(0, 0), ALICE), alias: 1 };
/** A generic grant through one API version and then the other: the same policy. */
const throughVersion = (g: ModelGrant, version: number): ModelGrant => ({ ...g, family: 1, version });

const EXAMPLES: [string, Case][] = [
  [
    '(a) bulk 5 entries cut to 3 while every write is refused (503, nothing committed), then a clean apply: the 2 removed entries are gone',
    fixed([applied([FIVE]), applied([THREE], everyWriteRefused), applied([THREE]), destroyed([THREE])]),
  ],
  [
    "(b) an _iam_member's role changed in place while every write's answer is a 503 (nothing committed), then a clean apply: the old role is gone",
    fixed([
      applied([member(0, at(0, 0), ALICE)]),
      applied([member(0, at(0, 1), ALICE)], everyWriteRefused),
      applied([member(0, at(0, 1), ALICE)]),
      destroyed([member(0, at(0, 1), ALICE)]),
    ]),
  ],
  [
    "(b') the same with every write committed and its answer lost",
    fixed([
      applied([member(0, at(0, 0), ALICE)]),
      applied([member(0, at(0, 1), ALICE)], everyAnswerLost),
      applied([member(0, at(0, 1), ALICE)]),
      destroyed([member(0, at(0, 1), ALICE)]),
    ]),
  ],
  [
    '(c) member_roles(alice: viewer) beside members(alice editor, bob editor): refused at plan, nothing written',
    fixed([
      applied([MEMBERS_AB, ALICE_VIEWER]),
      applied([MEMBERS_AB]),
      applied([MEMBERS_AB, ALICE_VIEWER]),
      applied([MEMBERS_AB]),
      destroyed([MEMBERS_AB]),
    ]),
  ],
  [
    '(d) binding(viewer = [carol]) beside member_roles alice(viewer) and bob(viewer, editor): refused at plan',
    fixed([
      applied([CAROL_VIEWERS, ...ALICE_AND_BOB]),
      applied([CAROL_VIEWERS]),
      applied([CAROL_VIEWERS, ...ALICE_AND_BOB]),
      applied([CAROL_VIEWERS]),
      destroyed([CAROL_VIEWERS]),
    ]),
  ],
  [
    "(e) bulk A applied, bulk B declaring one of A's grants added (refused at plan), then terraform destroy with both in the configuration succeeds and revokes A's grants",
    fixed([applied([BULK_A]), applied([BULK_A, BULK_B]), destroyed([BULK_A, BULK_B])]),
  ],
  [
    "(f) a member grant on an empty policy removed from the configuration while every read lags one version: the refresh answers the policy before the grant's own write (the empty one), the grant drops out of the state, and nothing revokes it",
    fixed(
      [
        applied([member(0, at(0, 0), ALICE)]),
        applied([], { misbehaviour: { ...QUIET, staleReads: 1, staleDepth: 1 }, budgetMs: 50 }),
        applied([]),
        destroyed([]),
      ],
      [{ slot: at(1), member: 0 }],
    ),
  ],
  [
    '(g) two _iam_member resources of the same values (one grant declared twice): refused at plan, on both',
    fixed(refusedThenAlone([member(0, at(0, 0), ALICE), member(4, at(0, 0), ALICE)])),
  ],
  [
    '(h) two _iam_binding resources of one role (viewer = [alice], viewer = [bob, alice]): refused at plan, on both',
    fixed(refusedThenAlone([binding(0, at(0, 0), [ALICE]), binding(4, at(0, 0), [BOB, ALICE])])),
  ],
  [
    '(i) a member grant naming the project by its number (provider alias 1) beside a policy grant naming it by id (the default provider): refused at plan, on both',
    fixed(refusedThenAlone([{ ...member(0, at(0, 0), ALICE), byNumber: true, alias: 1 }, EMPTY_POLICY_A])),
  ],
  [
    "(l) a principal's roles declared twice on one policy, with no role and with viewer, beside binding(viewer = [bob]): refused at plan, the binding too (the second of the twins used to replace the first in the claim index; seed 884902941)",
    fixed(refusedThenAlone([memberRoles(0, 1, ALICE, []), binding(0, at(1, 0), [BOB]), memberRoles(4, 1, ALICE, [at(1, 0)])])),
  ],
  [
    "(j) an _iam_member_roles removed from the configuration while the refresh answers the policy before its write (the empty one) and the delete's read is current: revoked",
    lostWhileLagging(memberRoles(0, 0, ALICE, [at(0, 0)])),
  ],
  ["(j') the same with an _iam_policy", lostWhileLagging(POLICY_A_ALICE)],
  [
    "(k) a grant moved to another provider alias, the old address's delete failing, then a saved plan (terraform plan -out, terraform apply plan.tfplan): the old address's delete spares what the unchanged new one holds (the plan file tells it)",
    fixed(
      [
        applied([MOVED_FROM]),
        { ...applied([MOVED_TO], FIRST_WRITE_ONLY), apply: { rank: [], delays: [30, 0] } },
        { ...applied([MOVED_TO]), savedPlan: true },
        destroyed([MOVED_TO]),
      ],
      [{ slot: at(0), member: 0 }],
      533,
    ),
  ],
  [
    "(m) a generic _iam_member's api_version changed alone while every write is refused: the apply writes nothing and succeeds, Google holds the grant",
    fixed([
      applied([throughVersion(member(0, at(0, 0), ALICE), 0)]),
      { ...applied([throughVersion(member(0, at(0, 0), ALICE), 1)], everyWriteRefused), expected: { ok: true, writes: 0 } },
      destroyed([throughVersion(member(0, at(0, 0), ALICE), 1)]),
    ]),
  ],
  [
    "(m') a generic _iam_binding's members changed with every answer lost (the outcome unknown), then its api_version changed alone: granted again, not skipped",
    fixed([
      applied([throughVersion(binding(0, at(0, 0), [ALICE]), 0)]),
      { ...applied([throughVersion(binding(0, at(0, 0), [ALICE, BOB]), 0)], everyAnswerLost), expected: { ok: false } },
      { ...applied([throughVersion(binding(0, at(0, 0), [ALICE, BOB]), 1)]), expected: { ok: true, writes: 'some' } },
      destroyed([throughVersion(binding(0, at(0, 0), [ALICE, BOB]), 1)]),
    ]),
  ],
  [
    "(m'') a generic _iam_binding's members and api_version changed together while every write is refused: the apply fails, the next one grants",
    fixed([
      applied([throughVersion(binding(0, at(0, 0), [ALICE]), 0)]),
      { ...applied([throughVersion(binding(0, at(0, 0), [ALICE, BOB]), 1)], everyWriteRefused), expected: { ok: false, writes: 0 } },
      { ...applied([throughVersion(binding(0, at(0, 0), [ALICE, BOB]), 1)]), expected: { ok: true, writes: 1 } },
      destroyed([throughVersion(binding(0, at(0, 0), [ALICE, BOB]), 1)]),
    ]),
  ],
];

// ---- the tests --------------------------------------------------------------------------------

/** Shards side by side: a case spends most of its time waiting on the batchers' gathering and the schedule's delays. */
const SHARDS = process.env.RESOURCE_PROPERTY_SEED ? 1 : 4;

test(`after a successful terraform apply Google holds exactly what the configuration says, at the resource layer (${RUNS} cases)`, async () => {
  const seed = Number(process.env.RESOURCE_PROPERTY_SEED ?? Date.now() % 2 ** 31);
  await Promise.all(
    Array.from({ length: SHARDS }, async (_, shard) => {
      try {
        await fc.assert(withShrinkBudget(SHRINK_MS), {
          numRuns: Math.ceil(RUNS / SHARDS),
          seed: seed + shard,
          endOnFailure: process.env.RESOURCE_PROPERTY_SHRINK === '0',
          ...(process.env.RESOURCE_PROPERTY_PATH ? { path: process.env.RESOURCE_PROPERTY_PATH } : {}),
        });
      } catch (error) {
        // fast-check's report names the seed and path; say how to replay this shard alone.
        if (error instanceof Error) {
          error.message = `RESOURCE_PROPERTY_SEED=${seed + shard} (shard ${shard} of the run's seed ${seed}) replays it:\n${error.message}`;
        }
        throw error;
      }
    }),
  );
  console.log(`resource-layer property, seed ${seed}: ${JSON.stringify(seen)}`);
  // The run exercised what it is about (a replay of one path, or a handful of cases, may not).
  if (RUNS >= 100 && !process.env.RESOURCE_PROPERTY_PATH) {
    expect(seen.faultedAppliesFailed).toBeGreaterThan(0);
    expect(seen.faultedAppliesSucceeded).toBeGreaterThan(0);
    expect(seen.taintedOrDeposed).toBeGreaterThan(0);
    expect(seen.successfulAppliesJudged).toBeGreaterThan(seen.cases);
    expect(seen.savedPlansJudged).toBeGreaterThan(0);
    if (OVERLAPS) {
      expect(seen.refusedOverlaps).toBeGreaterThan(0);
      expect(seen.destroysWithOverlap).toBeGreaterThan(0);
    }
  }
});

describe('fixed cases of issue 49', () => {
  test.each(EXAMPLES)('%s', async (_name, example) => {
    await fc.assert(property, { numRuns: 1, examples: [[example]] });
  });

  test('the fixed overlapping configurations are what the oracle calls contradictory', () => {
    expect(conflictingPairs([MEMBERS_AB, ALICE_VIEWER])).toHaveLength(1);
    expect(conflictingPairs([CAROL_VIEWERS, ...ALICE_AND_BOB])).toHaveLength(2);
    expect(conflictingPairs([BULK_A, BULK_B])).toHaveLength(1);
    expect(conflictingPairs([FIVE])).toHaveLength(0);
    expect(conflictingPairs([MOVED_FROM, MOVED_TO])).toHaveLength(1);
    expect(conflictingPairs([binding(0, at(0, 0), [ALICE]), binding(4, at(0, 0), [BOB, ALICE])])).toHaveLength(1);
    expect(conflictingPairs([bulk(0, 0, []), EMPTY_POLICY_A])).toHaveLength(0);
  });
});
