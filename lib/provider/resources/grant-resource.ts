import { GoogleIamApis } from '../../api/iam-apis';
import type { IamResourceUse } from '../../api/resource-validation';
import {
  changeEdits,
  describeGrant,
  grantedBindings,
  grantEdits,
  grantId,
  grantKey,
  isAuthoritative,
  takesAway,
  type Grant,
  type IamResource,
} from '../../iam/grant';
import { claimsOf } from '../../iam/grant-claims';
import { PolicyIdentity } from '../../iam/identity';
import type { PolicyEdit } from '../../iam/policy-edit';
import { applyEdits } from '../../iam/policy-edit';
import { describePolicyMember, removedMembers } from '../../iam/policy-diff';
import type { GoogleApiError } from '../../api/errors';
import { grantValueErrors } from '../../iam/grant-validation';
import { EMPTY_POLICY_ETAG, type Policy } from '../../iam/types';
import { isNotFound, ProviderErrors, reportError, reportRefusalAhead, reportWriteError } from '../errors';
import { ctyFromJson, isWhollyKnown, UNKNOWN, type CtyObject } from '../framework/cty';
import type { Diagnostics } from '../framework/diagnostics';
import { formatDuration } from '../framework/duration';
import type { CallContext, PlannedChange, PlanRequest, ResourceType } from '../framework/resource';
import { attributeType, schemaType, valueAttributes, type Attribute, type Block, type Schema } from '../framework/schema';
import { StaleRead } from '../policies/policy-batcher';
import { RunDeclarations } from '../policies/run-declarations';
import type { GoogleIamContext } from '../provider-context';
import { sameValue } from '../framework/value-equality';
import { knownValue } from '../framework/cty-values';
import { encodeModel, ModelReader, type ModelObject } from '../framework/model';
import { grantTypeName, type IamTypeDescriptor } from './iam-type-descriptor';
import { CHECK_SUPPRESSIONS_ATTRIBUTE, COMPUTED_ATTRIBUTES } from './iam-schema';
import { refusedByChecks, reportCheckFindings } from './check-findings';
import { emptyAfterOwnWrite, olderThanOwnWrite, ownWriteRecent, rememberWrite } from './own-writes';
import { reportConditionWarnings } from './condition-findings';
import { reportRoleWarnings, roleRefusal } from './role-findings';
import { changeOnceVisible } from './visible-change';
import { keptAfterFailedWrite, markSettled, pendingValues, unsettled, unsettledRecently } from './failed-write';
import { carryLastApplied, grantPairKey, lastAppliedPairs, rememberLastApplied } from './last-applied';
import { movedGrant, MoveRefusal, type MovedGrant } from './move-sources';

/** What every grant's model holds besides its kind's own attributes: its resource, and what the provider sets. */
export interface GrantModel {
  /** What the resource attributes name (`name`; for the generic types also `service`, `api_version`, `get_iam_policy_method`). */
  readonly resource: IamResource;
  readonly id?: string;
  /** The policy's etag after the last change or read; unset in a plan (the apply sets it), or when a write's outcome is unknown. */
  readonly etag?: string;
  /** `check_suppressions`: the IAM security findings the grant accepts, rule ID → reason. */
  readonly checkSuppressions?: ReadonlyMap<string, string>;
}

/**
 * What distinguishes member, binding and policy (iam-member.ts,
 * iam-binding.ts, iam-policy.ts, each in this order): their typed model,
 * their schema, the grant that Create applies, Update changes to and Delete
 * revokes, how Read refreshes them from Google's policy, their import IDs.
 * The calls themselves are `grantResourceType`'s, the same for every kind.
 */
export interface GrantKind<Model extends GrantModel> {
  readonly mode: Grant['mode'];
  /** The model of a value's `fields`, around what every grant holds. */
  decode(fields: ModelReader, common: GrantModel): Model;
  /** The kind's own attributes of `model`, by their schema names. */
  encode(model: Model): ModelObject;
  /** Markdown for the schema: what the type does. */
  describe(noun: string): string;
  readonly attributes: readonly Attribute[];
  /**
   * Attributes of its own that only the provider sets, with the values a
   * plan gives them (what they are once the apply has run): the bulk kind's
   * `missing_grants`, which a refresh fills.
   */
  readonly computed?: { readonly attributes: readonly Attribute[]; readonly planned: CtyObject };
  /** Its nested blocks (the condition, written `condition { ... }` as for the google provider). */
  readonly blocks?: readonly Block[];
  /**
   * The grant as far as a configuration or plan knows it, for the validators
   * (lib/iam grant-validation), which skip what `isKnown` says is unknown.
   */
  partialGrant(values: CtyObject): Grant;
  /** The grant `model` declares. */
  grantOf(model: Model): Grant;
  /** `state` refreshed from Google's policy; null when what it declares is gone. */
  refresh(state: Model, policy: Policy): Model | null;
  /** How many words an import ID has after `<resource>`: at least `min`, exactly `min` when `exact`; `format` for messages. */
  readonly importWords: { readonly min: number; readonly exact?: boolean; readonly format: string };
  /** The model an import ID's words name, filled from the policy read (a condition found by its title). */
  imported(words: readonly string[], policy: Policy, common: GrantModel): Model;
}

/**
 * An IAM resource type (member, binding or policy) of one descriptor (typed
 * row or generic), like terraform-plugin-framework's resources: schema,
 * validation, plan, and create/read/update/delete/import through the
 * provider's per-policy batcher (lib/provider/policies). Validate and plan
 * look at the partial values (unknowns included); every other call decodes
 * its values once into the kind's typed model and works on that.
 */
export function grantResourceType<Model extends GrantModel>(
  descriptor: IamTypeDescriptor,
  kind: GrantKind<Model>,
): ResourceType<GoogleIamContext> {
  const ownComputed = kind.computed?.attributes ?? [];
  const attributes = [
    ...descriptor.resourceAttributes,
    ...kind.attributes,
    CHECK_SUPPRESSIONS_ATTRIBUTE,
    ...ownComputed,
    ...COMPUTED_ATTRIBUTES,
  ];
  const schema: Schema = { version: 0, description: kind.describe(descriptor.noun), attributes, blocks: kind.blocks };
  const values = valueAttributes(schema);
  const types = new Map(values.map((a) => [a.name, attributeType(a)]));
  /** The attributes only the provider sets (never configured). */
  const computed = [...ownComputed, ...COMPUTED_ATTRIBUTES].map((a) => a.name);
  /** What a configuration sets (blocks included): every value but those only the provider sets. */
  const configured = [...types.keys()].filter((name) => !computed.includes(name));
  /** What a refresh compares with Google: what is configured, and what the kind says of Google besides (`missing_grants`). */
  const refreshed = [...configured, ...ownComputed.map((a) => a.name)];
  const differs = (prior: CtyObject, proposed: CtyObject, name: string) =>
    !sameValue(prior[name] ?? null, proposed[name] ?? null, types.get(name)!);
  const use = (values: CtyObject): IamResourceUse =>
    kind.mode === 'policy' && values.audit_configs !== null && values.audit_configs !== undefined ? 'write-audit-configs' : 'write';

  /** The model of values Terraform knows (a state; a plan but for `pending`, the computed attributes it leaves unknown). */
  function decode(value: CtyObject, pending: readonly string[] = []): Model {
    const fields = ModelReader.decode(values, value, { pending });
    const common: GrantModel = {
      resource: descriptor.decodeResource(fields),
      id: fields.optionalString('id'),
      etag: fields.optionalString('etag'),
      checkSuppressions: fields.optionalStringMap('check_suppressions'),
    };
    return kind.decode(fields, common);
  }
  /** `model` as the state Terraform keeps. */
  const encode = (model: Model): CtyObject =>
    encodeModel(values, {
      ...descriptor.encodeResource(model.resource),
      ...kind.encode(model),
      id: model.id,
      etag: model.etag,
      check_suppressions: model.checkSuppressions && new Map(model.checkSuppressions),
    });
  /** A plan's model: its etag is unknown until the apply's write. */
  const decodePlan = (planned: CtyObject) => decode(planned, ['etag']);
  const stateType = schemaType(schema);
  const batcher = (context: CallContext<GoogleIamContext>, grant: Grant) => context.provider.policies.of(grant.resource);

  /** What the validators refuse in `values` (unknown values skipped). */
  function refusals(values: CtyObject): { summary: string; error: unknown }[] {
    const found: { summary: string; error: unknown }[] = [];
    try {
      descriptor.validate(values, use(values), kind.mode);
    } catch (error) {
      found.push({ summary: `Invalid ${descriptor.noun}`, error });
    }
    for (const error of grantValueErrors(kind.partialGrant(values), knownValue)) found.push({ summary: 'Invalid IAM grant', error });
    const role = roleRefusal(descriptor, kind.partialGrant(values), values);
    if (role) found.push(role);
    return found;
  }

  /** The grant of a configuration or plan whose configured values are all known (the computed ones left aside); else undefined. */
  function knownGrant(values: CtyObject): Grant | undefined {
    const known = descriptor.resourceOf(values) !== undefined && configured.every((name) => isWhollyKnown(values[name]));
    return known ? kind.grantOf(decode(values, computed)) : undefined;
  }

  /** Refuses, with errors, the values a create or update is asked to write; true when there were any. */
  function refused(values: CtyObject, diagnostics: Diagnostics): boolean {
    const found = refusals(values);
    for (const { summary, error } of found) reportError(diagnostics, summary, error);
    return found.length > 0;
  }

  const typeName = grantTypeName(descriptor.typeInfix, kind.mode);

  /**
   * What a plan of a grant the configuration holds does besides planning:
   * records what it grants for the run (no removal of the apply takes it
   * away), refuses what it claims that another resource of the configuration
   * claims too (grant-claims.ts: an owner and a grant it owns, or the same
   * grant twice; at destroy only a warning), and, for an authoritative kind,
   * says what the apply will remove that the configuration never listed (one
   * read per policy): not what the configuration held at the last apply, which the user took out (last-applied.ts).
   */
  async function planEffects(
    context: CallContext<GoogleIamContext>,
    grant: Grant,
    creating: boolean,
    diagnostics: Diagnostics,
  ): Promise<void> {
    const edits = grantEdits(grant, 'apply');
    const overlaps = await context.provider.policies.planned(grant.resource, edits, claimsOf(grant), labelOf(grant));
    reportOverlaps(context, grant, overlaps, diagnostics);
    const alone = context.provider.policies.runUnavailable();
    if (alone) diagnostics.warning(alone.summary, alone.detail);
    if (!creating && !isAuthoritative(grant.mode)) return;
    let policy: Policy;
    try {
      // One read per policy and process, shared by every grant of it.
      policy = await (await batcher(context, grant)).read();
    } catch (error) {
      // Refused, or not there: the apply reads again and reports it. A create whose resource is not there hears it
      // now, not after the apply has waited out the visibility budget for a name with a typo.
      if (creating && isNotFound(error)) {
        const waits = formatDuration(context.provider.visibilityRetry.maxElapsedMs);
        diagnostics.warning(
          'The resource does not exist',
          ProviderErrors.missingAtPlan(grant.resource.name, waits, error as GoogleApiError),
        );
      }
      return;
    }
    if (!isAuthoritative(grant.mode)) return;
    const listed = lastAppliedPairs(context.private);
    const removed = removedMembers(policy, applyEdits(policy, edits)).filter(
      (m) => !listed.has(grantPairKey(m.role, m.condition, m.member)),
    );
    if (removed.length > 0) {
      diagnostics.warning(
        `${typeName} removes grants the configuration does not list`,
        ProviderErrors.removesUnlisted(describeGrant(grant), removed.map(describePolicyMember)),
      );
    }
  }

  /** The roles `grant` holds: Google refusing another one means a binding it does not touch (reportWriteError). */
  const rolesOf = (grant: Grant) => grantedBindings(grant).map((binding) => binding.role);

  /** How messages name `grant`'s resource, and what tells it from the others: its type and grant key. */
  const labelOf = (grant: Grant) => ({ label: `${typeName} ${grantId(grant)}`, key: `${typeName}|${grantKey(grant)}` });

  /** Each claim another resource contradicts: an error (a warning at destroy, which must never be trapped). */
  function reportOverlaps(
    context: CallContext<GoogleIamContext>,
    grant: Grant,
    overlaps: Awaited<ReturnType<GoogleIamContext['policies']['claim']>>,
    diagnostics: Diagnostics,
  ): void {
    for (const { overlap, declaredBy } of overlaps) {
      const summary = overlap.kind === 'duplicate' ? 'The same grant twice' : 'Two resources claim one grant';
      const detail =
        overlap.kind === 'duplicate'
          ? ProviderErrors.grantedTwice(overlap.grant, grant.resource.name, declaredBy)
          : ProviderErrors.claimedTwice(overlap.grant, grant.resource.name, overlap.why, declaredBy);
      if (context.provider.command.destroys) diagnostics.warning(summary, `${detail}. ${ProviderErrors.OVERLAP_AT_DESTROY}`);
      else diagnostics.error(summary, detail);
    }
  }

  /**
   * A change about to be written: what the grant claims (its values may have
   * been unknown at plan) against the configuration's other grants; true when
   * refused (nothing is sent).
   */
  async function overlapRefused(context: CallContext<GoogleIamContext>, grant: Grant, diagnostics: Diagnostics): Promise<boolean> {
    const overlaps = await context.provider.policies.claim(grant.resource, claimsOf(grant), labelOf(grant));
    reportOverlaps(context, grant, overlaps, diagnostics);
    return overlaps.length > 0 && !context.provider.command.destroys;
  }

  /**
   * The edits of a change from `before` to `after` when an earlier update's
   * outcome was unknown (failed-write.ts): what its planned values granted is
   * revoked too, before the change's own edits (whose grants come last, so
   * what `after` grants stays).
   */
  function withPendingRevoked(context: CallContext<GoogleIamContext>, edits: PolicyEdit[]): PolicyEdit[] {
    const pending = pendingValues(context.private, stateType);
    return pending ? [...grantEdits(kind.grantOf(decode(pending)), 'remove'), ...edits] : edits;
  }

  /**
   * Whether the state `prior` must be granted again whatever the plan: a grant a refresh kept though Google answered
   * the empty policy (own-writes.ts), and one whose last write's outcome is unknown (failed-write.ts).
   */
  const suspect = (prior: CtyObject, context: CallContext<GoogleIamContext>) =>
    (prior.etag === EMPTY_POLICY_ETAG && ownWriteRecent(context.private)) || unsettled(context.private);

  /**
   * Whether a change from the state `prior` to `next` (planned values) on the same policy leaves it as it is, so that
   * its update writes nothing: the same grant, nothing the kind says of Google besides differing (`missing_grants`,
   * entries to grant again), and nothing suspect. What changes then is how the policy is reached (`api_version`,
   * `get_iam_policy_method`, the spelling of its name) or what its checks accept (`check_suppressions`). The plan
   * keeps the etag known exactly when this holds, which is what Update goes by.
   */
  function leavesPolicy(context: CallContext<GoogleIamContext>, prior: CtyObject, next: CtyObject, after: Grant): boolean {
    if (suspect(prior, context) || ownComputed.some((a) => differs(prior, next, a.name))) return false;
    return JSON.stringify(grantEdits(kind.grantOf(decode(prior)), 'apply')) === JSON.stringify(grantEdits(after, 'apply'));
  }

  return {
    typeName,
    schema,

    // A refused value is an error where Terraform validates the configuration statically; inside a plan or
    // apply walk it is a warning (that walk may be destroy's refresh, which an error would stop), and the
    // create or update refuses it before sending anything.
    validate(config, diagnostics, request) {
      const report = request.providerConfigured ? reportRefusalAhead : reportError;
      for (const { summary, error } of refusals(config)) report(diagnostics, summary, error);
      reportRoleWarnings(diagnostics, descriptor, kind.partialGrant(config), config, request.providerConfigured);
      reportConditionWarnings(diagnostics, kind.partialGrant(config), request.providerConfigured);
      reportCheckFindings(diagnostics, kind.partialGrant(config), config, request);
      // The static validation sees every resource before any is planned: what it records lets both of two
      // resources whose claims contradict fail at plan, each under its own address.
      const run = !request.providerConfigured && request.scope instanceof RunDeclarations ? request.scope : undefined;
      const grant = run && knownGrant(config);
      if (run && grant) run.claim(PolicyIdentity.of(grant.resource).key, claimsOf(grant), labelOf(grant), true);
    },

    async plan(request: PlanRequest, diagnostics: Diagnostics, context?: CallContext<GoogleIamContext>): Promise<PlannedChange> {
      const { prior, proposed } = request;
      const settled = { ...proposed, ...kind.computed?.planned };
      const regranted = prior !== null && context !== undefined && suspect(prior, context);
      const changed = prior === null || regranted || refreshed.some((name) => differs(prior, settled, name));
      const grant = knownGrant(proposed);
      // Only another policy replaces a grant: not another API version or spelling of the same name (a bucket's `b/x`
      // and `projects/_/buckets/x`: GoogleIamApis.policyKey), which is an update in place.
      const [priorResource, proposedResource] = [prior && descriptor.resourceOf(prior), descriptor.resourceOf(proposed)];
      const samePolicy =
        !!priorResource && !!proposedResource && GoogleIamApis.policyKey(priorResource) === GoogleIamApis.policyKey(proposedResource);
      // A change that leaves the policy as it is keeps the etag: no write.
      const writes =
        changed && !(prior !== null && samePolicy && context !== undefined && grant && leavesPolicy(context, prior, settled, grant));
      const planned: CtyObject = {
        ...settled,
        id: grant ? grantId(grant) : UNKNOWN,
        etag: writes ? UNKNOWN : (prior?.etag ?? UNKNOWN),
      };
      const requiresReplace =
        prior === null || samePolicy ? [] : descriptor.replacedBy.filter((a) => differs(prior, proposed, a)).map((a) => [a]);
      if (context && grant && refusals(proposed).length === 0) await planEffects(context, grant, prior === null, diagnostics);
      return { planned, requiresReplace };
    },

    // A destroy planned (terraform destroy's destroy walk, or the resource deleted from the configuration).
    planDestroy(_prior, _diagnostics, context) {
      context.provider.policies.plannedDestruction(context.provider.command.destroys);
    },

    // A saved plan's apply plans nothing it leaves as it is: what those grant is spared from its removals here.
    async unchanged(context, state) {
      const grant = kind.grantOf(decode(state));
      await context.provider.policies.unchanged(grant.resource, grantEdits(grant, 'apply'));
    },

    async create(context, planned, diagnostics) {
      if (refused(planned, diagnostics)) return null;
      const plan = decodePlan(planned);
      const grant = kind.grantOf(plan);
      if (refusedByChecks(context.provider.checks, grant, plan.checkSuppressions, diagnostics)) return null;
      if (await overlapRefused(context, grant, diagnostics)) return null;
      try {
        const result = await changeOnceVisible(context, grant, changeEdits(undefined, grant));
        rememberWrite(context.private, result);
        markSettled(context.private);
        if (isAuthoritative(kind.mode)) rememberLastApplied(context.private, grant);
        return encode({ ...plan, etag: result.etag });
      } catch (error) {
        reportWriteError(diagnostics, `Could not grant ${describeGrant(grant)}`, error, 'create', rolesOf(grant));
        return keptAfterFailedWrite('create', error, { prior: null, planned }, context.private, stateType);
      }
    },

    async update(context, prior, planned, diagnostics) {
      if (refused(planned, diagnostics)) return prior;
      const before = kind.grantOf(decode(prior));
      const plan = decodePlan(planned);
      const after = kind.grantOf(plan);
      if (refusedByChecks(context.provider.checks, after, plan.checkSuppressions, diagnostics)) return prior;
      if (await overlapRefused(context, after, diagnostics)) return prior;
      if (plan.etag !== undefined) {
        // The plan kept the etag (leavesPolicy): the grant is the same on the same policy, so nothing is written. What
        // it grants is spared from the run's removals, as a grant the run leaves as it is.
        await context.provider.policies.unchanged(after.resource, grantEdits(after, 'apply'));
        return encode(plan);
      }
      try {
        const result = await changeOnceVisible(context, after, withPendingRevoked(context, changeEdits(before, after)));
        rememberWrite(context.private, result);
        markSettled(context.private);
        if (isAuthoritative(kind.mode)) rememberLastApplied(context.private, after);
        return encode({ ...plan, etag: result.etag });
      } catch (error) {
        reportWriteError(diagnostics, `Could not change ${describeGrant(after)}`, error, 'update', [...rolesOf(before), ...rolesOf(after)]);
        return keptAfterFailedWrite('update', error, { prior, planned }, context.private, stateType);
      }
    },

    async delete(context, prior, diagnostics) {
      const grant = kind.grantOf(decode(prior));
      try {
        await (await batcher(context, grant)).change(withPendingRevoked(context, changeEdits(grant, undefined)), context.signal);
      } catch (error) {
        if (isNotFound(error)) {
          diagnostics.warning(
            `${grant.resource.name} no longer exists`,
            `Google answered NOT_FOUND; ${describeGrant(grant)} went with it. ${(error as Error).message}`,
          );
          return;
        }
        // The object stays in Terraform's state (an outcome unknown included), so the next destroy tries again.
        reportWriteError(diagnostics, `Could not revoke ${describeGrant(grant)}`, error, 'delete', rolesOf(grant));
      }
    },

    async read(context, state, diagnostics) {
      const current = decode(state);
      const grant = kind.grantOf(current);
      const unchanged = (policy: Policy) => {
        const fresh = kind.refresh(current, policy);
        return fresh !== null && !refreshed.some((name) => differs(state, encode(fresh), name));
      };
      // A version the grant's own write had replaced is a lagging read, not drift: read again, unless it shows no change anyway.
      const stale = (policy: Policy) => olderThanOwnWrite(context.private, policy) && !unchanged(policy);
      let policy: Policy;
      try {
        policy = await (
          await batcher(context, grant)
        ).readNotStale(stale, (older) =>
          context.log('info', `${describeGrant(grant)}: Google answered a version older than this provider's last write; reading again`, {
            etag: older.etag,
          }),
        );
      } catch (error) {
        if (error instanceof StaleRead) {
          diagnostics.warning(
            `Google still answers an older IAM policy of ${grant.resource.name}`,
            `After ${formatDuration(context.provider.policies.staleReadBudgetMs)}, every read of the policy answered a version that this provider's last write of ${describeGrant(grant)} had replaced (Google's IAM reads are eventually consistent). The state is kept as written; run terraform plan again later to compare it with Google.`,
          );
          return state;
        }
        if (isNotFound(error)) {
          diagnostics.warning(
            `${grant.resource.name} no longer exists`,
            `Google answered NOT_FOUND: ${describeGrant(grant)} is dropped from the state. ${(error as Error).message}`,
          );
          return null;
        }
        reportError(diagnostics, `Could not read the IAM policy of ${grant.resource.name}`, error);
        return state;
      }
      if (emptyAfterOwnWrite(context.private, policy) && !unchanged(policy)) {
        // Whatever the kind: a refresh from it would forget (or, for an authoritative kind, empty) what Google may hold.
        diagnostics.warning(
          `Google answers the IAM policy of ${grant.resource.name} as empty`,
          ProviderErrors.emptyAfterOwnWrite(describeGrant(grant)),
        );
        return encode({ ...current, etag: policy.etag });
      }
      let fresh = kind.refresh(current, policy);
      const pending = pendingValues(context.private, stateType);
      if (fresh === null && pending) {
        // An update whose outcome was unknown went through: its values are the state now.
        fresh = kind.refresh(decode(pending), policy);
        if (fresh !== null) markSettled(context.private);
      }
      if (unsettledRecently(context.private) && takesAway(grant, fresh === null ? undefined : kind.grantOf(fresh))) {
        diagnostics.warning(
          `Google's IAM policy of ${grant.resource.name} lacks what a write of moments ago may have granted`,
          ProviderErrors.keptUnsettled(describeGrant(grant)),
        );
        return state;
      }
      if (fresh === null) return null;
      // An older version that shows no change keeps the state's etag, the newer one.
      return encode({ ...fresh, etag: olderThanOwnWrite(context.private, policy) ? current.etag : policy.etag });
    },

    // A `moved` block from the google provider's grant of the same resource, or from this provider's other family
    // (typed <-> generic): the state an import would write, with the source's etag; nothing is read or written.
    moveFrom(source, diagnostics, target) {
      const refuse = (why: string): null => {
        diagnostics.error(`Cannot move ${source.typeName} to ${typeName}`, ProviderErrors.moveRefused(source.typeName, typeName, why));
        return null;
      };
      let moved: MovedGrant;
      try {
        moved = movedGrant(source, { typeName, mode: kind.mode });
      } catch (error) {
        if (error instanceof MoveRefusal) return refuse(error.message);
        throw error;
      }
      // The resource as this family names it; `get_iam_policy_method` left to its default, as a configuration leaves it.
      const { get_iam_policy_method: _method, ...resource } = descriptor.encodeResource(moved.resource);
      let value: CtyObject;
      let model: Model;
      try {
        value = ctyFromJson({ ...moved.attributes, ...resource, etag: moved.etag ?? null }, stateType, {
          dropUnknownAttributes: true,
        }) as CtyObject;
        descriptor.validate(value, use(value), kind.mode);
        model = decode(value);
      } catch (error) {
        return refuse(error instanceof Error ? error.message : String(error));
      }
      if (PolicyIdentity.of(model.resource).key !== PolicyIdentity.of(moved.resource).key)
        return refuse(`${moved.resource.name} of ${moved.resource.service} is not a ${descriptor.noun}`);
      if (moved.own) carryLastApplied(source.private, target);
      return encode({ ...model, id: grantId(kind.grantOf(model)) });
    },

    async importState(context, id, diagnostics) {
      try {
        const [resourceId, ...words] = id.trim().split(/\s+/);
        const { min, exact, format } = kind.importWords;
        if (!resourceId || words.length < min || (exact && words.length !== min)) throw ProviderErrors.importId(id, format);
        const resource = descriptor.importedResource(resourceId, kind.mode);
        const policy = await (await context.provider.policies.of(resource)).read();
        const common: GrantModel = { resource, etag: policy.etag };
        const model = kind.imported(words, policy, common);
        return [encode({ ...model, id: grantId(kind.grantOf(model)) })];
      } catch (error) {
        // ImportResourceState gets the type and the ID, not the address: Terraform shows no address with it.
        reportError(diagnostics, `Cannot import ${typeName} ${JSON.stringify(id)}`, error);
        return [];
      }
    },
  };
}
