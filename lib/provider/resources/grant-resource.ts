import type { IamResourceUse } from '../../api/resource-validation';
import { describeGrant, grantEdits, grantId, grantKey, type Grant, type IamResource } from '../../iam/grant';
import { validateGrantValues } from '../../iam/grant-validation';
import type { Policy } from '../../iam/types';
import { isNotFound, isOutcomeUnknown, ProviderErrors, reportError, reportRefusalAhead } from '../errors';
import { isWhollyKnown, UNKNOWN, type CtyObject } from '../framework/cty';
import type { Diagnostics } from '../framework/diagnostics';
import { formatDuration } from '../framework/duration';
import type { CallContext, PlannedChange, PlanRequest, ResourceType } from '../framework/resource';
import { attributeType, valueAttributes, type Attribute, type Block, type Schema } from '../framework/schema';
import { StaleRead } from '../policies/policy-batcher';
import type { GoogleIamContext } from '../provider-context';
import { sameValue } from '../framework/value-equality';
import { knownValue, stringOf } from '../framework/cty-values';
import { grantTypeName, type IamTypeDescriptor } from './iam-type-descriptor';
import { COMPUTED_ATTRIBUTES } from './iam-schema';
import { olderThanOwnWrite, rememberWrite } from './own-writes';
import { changeOnceVisible } from './visible-change';

/** What distinguishes member, binding and policy: their attributes, their grant, how Google's policy refreshes them, their import IDs. */
export interface GrantMode {
  readonly mode: Grant['mode'];
  /** Markdown for the schema: what the type does. */
  describe(noun: string): string;
  readonly attributes: readonly Attribute[];
  /** Its nested blocks (the condition, written `condition { ... }` as for the google provider). */
  readonly blocks?: readonly Block[];
  /** The grant `values` declare, every value known, on `resource`. */
  grantOf(resource: IamResource, values: CtyObject): Grant;
  /**
   * The grant as far as it is known, for the validators (lib/iam
   * grant-validation), which skip what `isKnown` says is unknown.
   */
  partialGrant(values: CtyObject): Grant;
  /** `state` refreshed from Google's policy; null when what it declares is gone. */
  refresh(state: CtyObject, policy: Policy): CtyObject | null;
  /** How many words an import ID has after `<resource>`: at least `min`, exactly `min` when `exact`; `format` for messages. */
  readonly importWords: { readonly min: number; readonly exact?: boolean; readonly format: string };
  /** The attributes an import ID's words name, filled from the policy read (a condition found by its title). */
  imported(words: readonly string[], policy: Policy): CtyObject;
}

/** The attributes only the provider sets (never configured): left out of the plan's comparisons. */
const COMPUTED = COMPUTED_ATTRIBUTES.map((a) => a.name);

/**
 * An IAM resource type (member, binding or policy) of one descriptor (typed
 * row or generic), like terraform-plugin-framework's resources: schema,
 * validation, plan, and create/read/update/delete/import through the
 * provider's per-policy batcher (lib/provider/policies).
 */
export function grantResourceType(descriptor: IamTypeDescriptor, mode: GrantMode): ResourceType<GoogleIamContext> {
  const attributes = [...descriptor.resourceAttributes, ...mode.attributes, ...COMPUTED_ATTRIBUTES];
  const schema: Schema = { version: 0, description: mode.describe(descriptor.noun), attributes, blocks: mode.blocks };
  const types = new Map(valueAttributes(schema).map((a) => [a.name, attributeType(a)]));
  /** What a configuration sets (blocks included): every value but those only the provider sets. */
  const configured = [...types.keys()].filter((name) => !COMPUTED.includes(name));
  const differs = (prior: CtyObject, proposed: CtyObject, name: string) =>
    !sameValue(prior[name] ?? null, proposed[name] ?? null, types.get(name)!);
  const use = (values: CtyObject): IamResourceUse =>
    mode.mode === 'policy' && values.audit_configs !== null && values.audit_configs !== undefined ? 'write-audit-configs' : 'write';
  /** The grant and its resource from values Terraform knows (planned, prior or state). */
  const grantOf = (values: CtyObject): Grant => {
    const resource = descriptor.resourceOf(values);
    if (!resource) throw new Error('the resource attributes are not known');
    return mode.grantOf(resource, values);
  };
  const batcher = (context: CallContext<GoogleIamContext>, grant: Grant) => context.provider.policies.of(grant.resource);

  /** What the validators refuse in `values` (unknown values skipped). */
  function refusals(values: CtyObject): { summary: string; error: unknown }[] {
    const found: { summary: string; error: unknown }[] = [];
    try {
      descriptor.validate(values, use(values), mode.mode);
    } catch (error) {
      found.push({ summary: `Invalid ${descriptor.noun}`, error });
    }
    try {
      validateGrantValues(mode.partialGrant(values), knownValue);
    } catch (error) {
      found.push({ summary: 'Invalid IAM grant', error });
    }
    return found;
  }

  /** Refuses, with errors, the values a create or update is asked to write; true when there were any. */
  function refused(values: CtyObject, diagnostics: Diagnostics): boolean {
    const found = refusals(values);
    for (const { summary, error } of found) reportError(diagnostics, summary, error);
    return found.length > 0;
  }

  const typeName = grantTypeName(descriptor.typeInfix, mode.mode);
  return {
    typeName,
    schema,

    // A refused value is an error where Terraform validates the configuration statically; inside a plan or
    // apply walk it is a warning (that walk may be destroy's refresh, which an error would stop), and the
    // create or update refuses it before sending anything.
    validate(config, diagnostics, request) {
      const report = request.providerConfigured ? reportRefusalAhead : reportError;
      for (const { summary, error } of refusals(config)) report(diagnostics, summary, error);
    },

    plan(request: PlanRequest): PlannedChange {
      const { prior, proposed } = request;
      const changed = prior === null || configured.some((name) => differs(prior, proposed, name));
      const resource = descriptor.resourceOf(proposed);
      const known = resource !== undefined && configured.every((name) => isWhollyKnown(proposed[name]));
      const name = stringOf(proposed.name);
      const planned: CtyObject = {
        ...proposed,
        id: known ? grantId(mode.grantOf(resource, proposed)) : UNKNOWN,
        project: name === undefined ? UNKNOWN : descriptor.projectOf(name),
        etag: changed ? UNKNOWN : (prior?.etag ?? UNKNOWN),
      };
      const requiresReplace = prior === null ? [] : descriptor.replacedBy.filter((a) => differs(prior, proposed, a)).map((a) => [a]);
      return { planned, requiresReplace };
    },

    async create(context, planned, diagnostics) {
      if (refused(planned, diagnostics)) return null;
      const grant = grantOf(planned);
      try {
        const result = await changeOnceVisible(context, grant, grantEdits(grant, 'apply'));
        rememberWrite(context.private, result);
        return { ...planned, etag: result.etag };
      } catch (error) {
        reportError(diagnostics, `Could not grant ${describeGrant(grant)}`, error);
        // Google may hold the grant: Terraform keeps it (tainted), so the next apply or a destroy settles it.
        return isOutcomeUnknown(error) ? { ...planned, etag: null } : null;
      }
    },

    async update(context, prior, planned, diagnostics) {
      if (refused(planned, diagnostics)) return prior;
      const before = grantOf(prior);
      const after = grantOf(planned);
      // One write, no gap: a changed member, role or condition is taken away and granted in the same batch.
      const edits =
        grantKey(before) === grantKey(after)
          ? grantEdits(after, 'apply')
          : [...grantEdits(before, 'remove'), ...grantEdits(after, 'apply')];
      try {
        const result = await changeOnceVisible(context, after, edits);
        rememberWrite(context.private, result);
        return { ...planned, etag: result.etag };
      } catch (error) {
        reportError(diagnostics, `Could not change ${describeGrant(after)}`, error);
        // Google may hold the new values: Terraform keeps them, so the next plan compares them with Google.
        return isOutcomeUnknown(error) ? { ...planned, etag: null } : prior;
      }
    },

    async delete(context, prior, diagnostics) {
      const grant = grantOf(prior);
      try {
        await batcher(context, grant).change(grantEdits(grant, 'remove'), context.signal);
      } catch (error) {
        if (isNotFound(error)) {
          diagnostics.warning(
            `${grant.resource.name} no longer exists`,
            `Google answered NOT_FOUND; ${describeGrant(grant)} went with it. ${(error as Error).message}`,
          );
          return;
        }
        // The object stays in Terraform's state (an outcome unknown included), so the next destroy tries again.
        reportError(diagnostics, `Could not revoke ${describeGrant(grant)}`, error);
      }
    },

    async read(context, state, diagnostics) {
      const grant = grantOf(state);
      const unchanged = (policy: Policy) => {
        const refreshed = mode.refresh(state, policy);
        return refreshed !== null && !configured.some((name) => differs(state, refreshed, name));
      };
      // A version the grant's own write had replaced is a lagging read, not drift: read again, unless it shows no change anyway.
      const stale = (policy: Policy) => olderThanOwnWrite(context.private, policy) && !unchanged(policy);
      let policy: Policy;
      try {
        policy = await batcher(context, grant).readNotStale(stale, (older) =>
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
      const refreshed = mode.refresh(state, policy);
      if (refreshed === null) return null;
      // An older version that shows no change keeps the state's etag, the newer one.
      return { ...refreshed, etag: olderThanOwnWrite(context.private, policy) ? (state.etag ?? null) : (policy.etag ?? null) };
    },

    async importState(context, id, diagnostics) {
      try {
        const [resourceId, ...words] = id.trim().split(/\s+/);
        const { min, exact, format } = mode.importWords;
        if (!resourceId || words.length < min || (exact && words.length !== min)) throw ProviderErrors.importId(id, format);
        const resourceValues = descriptor.importedAttributes(resourceId, mode.mode);
        const resource = descriptor.resourceOf(resourceValues);
        if (!resource) throw ProviderErrors.importId(id, format);
        const policy = await context.provider.policies.of(resource).read();
        const values: CtyObject = { ...resourceValues, ...mode.imported(words, policy) };
        return [
          {
            ...values,
            id: grantId(mode.grantOf(resource, values)),
            project: descriptor.projectOf(resource.name),
            etag: policy.etag ?? null,
          },
        ];
      } catch (error) {
        // ImportResourceState gets the type and the ID, not the address: Terraform shows no address with it.
        reportError(diagnostics, `Cannot import ${typeName} ${JSON.stringify(id)}`, error);
        return [];
      }
    },
  };
}
