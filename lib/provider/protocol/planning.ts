/**
 * PlanResourceChange's rules, as resource.ts documents them and Terraform
 * checks them ("Provider produced invalid plan"):
 * - a destroy (no proposed state) plans null (the resource hears of it: planDestroy);
 * - without a `plan` of its own, a resource plans Terraform's proposal with
 *   computed attributes the configuration leaves null unknown on create,
 *   and on an update only if a configured attribute changed;
 * - whoever planned, a configured attribute that is not computed is planned
 *   exactly as configured.
 */
import { UNKNOWN, Unknown, type CtyObject, type CtyValue } from '../framework/cty';
import type { Diagnostics } from '../framework/diagnostics';
import type { CallContext, PlanRequest, PlannedChange, ResourceType } from '../framework/resource';
import { schemaType, valueAttributes, type Attribute } from '../framework/schema';
import { sameValue } from '../framework/value-equality';

/** The plan of one resource instance change; `planned` null for a destroy. */
export interface Plan {
  readonly planned: CtyObject | null;
  readonly requiresReplace: readonly (readonly string[])[];
}

/** Plans one change of `resource` (PlanResourceChange), following the rules above. */
export async function planResourceChange<Context>(
  resource: ResourceType<Context>,
  request: { readonly prior: CtyObject | null; readonly proposed: CtyObject | null; readonly config: CtyObject | null },
  diagnostics: Diagnostics,
  context?: CallContext<Context>,
): Promise<Plan> {
  const { prior, proposed, config } = request;
  if (proposed === null || config === null) {
    if (prior !== null && context && resource.planDestroy) await resource.planDestroy(prior, diagnostics, context);
    return { planned: null, requiresReplace: [] };
  }
  const planRequest: PlanRequest = { prior, proposed, config };
  const change: PlannedChange = resource.plan
    ? await resource.plan(planRequest, diagnostics, context)
    : defaultPlan(resource as ResourceType, planRequest);
  return {
    planned: withConfiguredValues(change.planned, config, valueAttributes(resource.schema)),
    requiresReplace: change.requiresReplace ?? [],
  };
}

function defaultPlan(resource: ResourceType, { prior, proposed, config }: PlanRequest): PlannedChange {
  const changed = prior === null || !sameValue(prior, proposed, schemaType(resource.schema));
  return { planned: changed ? unknownComputed(proposed, config, valueAttributes(resource.schema)) : proposed };
}

/** `proposed` with every computed attribute the configuration leaves null unknown, nested ones included. */
function unknownComputed(proposed: CtyObject, config: CtyObject | null, attributes: readonly Attribute[]): CtyObject {
  const out: { [name: string]: CtyValue } = { ...proposed };
  for (const attribute of attributes) {
    const configured = config?.[attribute.name] ?? null;
    const value = proposed[attribute.name] ?? null;
    if (attribute.computed && configured === null) {
      out[attribute.name] = UNKNOWN;
    } else if (attribute.nested) {
      out[attribute.name] = mapNested(attribute.nested.nesting, value, configured, (element, elementConfig) =>
        unknownComputed(element, elementConfig, attribute.nested!.attributes),
      );
    }
  }
  return out;
}

/**
 * `planned` with each attribute that is not computed set to the configuration's value; nested attributes that
 * hold computed ones are followed into (a SINGLE object), as only their own non-computed parts must match.
 */
function withConfiguredValues(planned: CtyObject, config: CtyObject, attributes: readonly Attribute[]): CtyObject {
  const out: { [name: string]: CtyValue } = { ...planned };
  for (const attribute of attributes) {
    if (attribute.computed) continue;
    const configured = config[attribute.name] ?? null;
    const value = planned[attribute.name] ?? null;
    const holdsComputed = attribute.nested?.attributes.some(hasComputed) === true;
    if (holdsComputed && attribute.nested!.nesting === 'SINGLE' && isObject(value) && isObject(configured)) {
      out[attribute.name] = withConfiguredValues(value, configured, attribute.nested!.attributes);
    } else if (!holdsComputed) {
      out[attribute.name] = configured;
    }
  }
  return out;
}

function hasComputed(attribute: Attribute): boolean {
  return attribute.computed === true || attribute.nested?.attributes.some(hasComputed) === true;
}

/** Applies `f` to a nested attribute's object(s), pairing list elements with the configuration's by index. */
function mapNested(
  nesting: 'SINGLE' | 'LIST' | 'SET',
  value: CtyValue,
  config: CtyValue,
  f: (element: CtyObject, config: CtyObject | null) => CtyObject,
): CtyValue {
  if (nesting === 'SINGLE') return isObject(value) ? f(value, isObject(config) ? config : null) : value;
  if (!Array.isArray(value)) return value;
  // A set's elements have no order to pair them by: an element then stands for its own configuration.
  const configElements = nesting === 'LIST' && Array.isArray(config) ? config : value;
  return value.map((element, i) => {
    const elementConfig = configElements[i];
    return isObject(element) ? f(element, isObject(elementConfig) ? elementConfig : null) : element;
  });
}

function isObject(value: CtyValue | undefined): value is CtyObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map) && !(value instanceof Unknown);
}
