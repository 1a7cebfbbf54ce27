import type { IamResourceUse } from '../../api/resource-validation';
import { describeGrant, grantEdits, grantId, type Grant, type IamResource } from '../../iam/grant';
import { validateGrantValues } from '../../iam/grant-validation';
import { grantKey } from '../../iam/identity';
import type { PolicyEdit } from '../../iam/policy-edit';
import type { Policy } from '../../iam/types';
import { isNotFound, ProviderErrors, reportError } from '../errors';
import { isWhollyKnown, UNKNOWN, type CtyObject } from '../framework/cty';
import type { Diagnostics } from '../framework/diagnostics';
import type { CallContext, PlannedChange, PlanRequest, ResourceType } from '../framework/resource';
import { attributeType, valueAttributes, type Attribute, type Block, type Schema } from '../framework/schema';
import type { GoogleIamContext } from '../provider-context';
import { sameValue } from '../framework/value-equality';
import { knownValue, stringOf } from './cty-values';
import { grantTypeName, type IamTypeDescriptor } from './iam-type-descriptor';
import { COMPUTED_ATTRIBUTES } from './iam-schema';

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

  async function change(
    context: CallContext<GoogleIamContext>,
    grant: Grant,
    edits: readonly PolicyEdit[],
    summary: string,
    diagnostics: Diagnostics,
  ): Promise<string | undefined> {
    try {
      return (await batcher(context, grant).change(edits, context.signal)).etag;
    } catch (error) {
      reportError(diagnostics, summary, error);
      return undefined;
    }
  }

  const typeName = grantTypeName(descriptor.typeInfix, mode.mode);
  return {
    typeName,
    schema,

    validate(config, diagnostics) {
      try {
        descriptor.validate(config, use(config), mode.mode);
      } catch (error) {
        reportError(diagnostics, `Invalid ${descriptor.noun}`, error);
      }
      try {
        validateGrantValues(mode.partialGrant(config), knownValue);
      } catch (error) {
        reportError(diagnostics, 'Invalid IAM grant', error);
      }
    },

    plan(request: PlanRequest): PlannedChange {
      const { prior, proposed } = request;
      const configured = [...types.keys()].filter((name) => !COMPUTED.includes(name));
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
      const grant = grantOf(planned);
      const etag = await change(context, grant, grantEdits(grant, 'apply'), `Could not grant ${describeGrant(grant)}`, diagnostics);
      return etag === undefined ? null : { ...planned, etag };
    },

    async update(context, prior, planned, diagnostics) {
      const before = grantOf(prior);
      const after = grantOf(planned);
      // One write, no gap: a changed member, role or condition is taken away and granted in the same batch.
      const edits =
        grantKey(before) === grantKey(after)
          ? grantEdits(after, 'apply')
          : [...grantEdits(before, 'remove'), ...grantEdits(after, 'apply')];
      const etag = await change(context, after, edits, `Could not change ${describeGrant(after)}`, diagnostics);
      return etag === undefined ? prior : { ...planned, etag };
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
        reportError(diagnostics, `Could not revoke ${describeGrant(grant)}`, error);
      }
    },

    async read(context, state, diagnostics) {
      const grant = grantOf(state);
      let policy: Policy;
      try {
        policy = await batcher(context, grant).read();
      } catch (error) {
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
      return refreshed === null ? null : { ...refreshed, etag: policy.etag ?? null };
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
