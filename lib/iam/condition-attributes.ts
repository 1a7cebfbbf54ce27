/**
 * The attributes and functions of Google's IAM conditions, with their CEL
 * types, as Google's attribute reference documents them
 * (https://cloud.google.com/iam/docs/conditions-attribute-reference; each
 * declaration names its section). cel-checker.ts declares them in a cel-js
 * environment and type-checks conditions against it, at synth, in the
 * provider at plan and in the emulator.
 *
 * Types are written as cel-js writes them: `google.protobuf.Timestamp` is
 * CEL's `timestamp`, `google.protobuf.Duration` its `duration`. The objects
 * (`request`, `resource`, ...) are message types of their own, named
 * `google.iam.*` here (Google does not publish its declarations' names;
 * messages say `request`, `resource`, ...).
 */

/** Google's attribute reference. */
export const ATTRIBUTE_REFERENCE = 'https://cloud.google.com/iam/docs/conditions-attribute-reference';

/** An attribute object of IAM conditions (`request`, `request.auth`, `resource`, ...) and its fields. */
export interface AttributeObject {
  /** The path a condition writes: `request`, `request.auth`. */
  readonly path: string;
  /** Its message type in the cel-js environment. */
  readonly type: string;
  /** Field name to CEL type. */
  readonly fields: Readonly<Record<string, string>>;
  /** The reference's section for it. */
  readonly section: string;
  /**
   * Set when Google's reference does not make the object certain in an allow
   * policy's condition: a use of it is a warning saying this, not an error.
   */
  readonly uncertain?: string;
}

export const TIMESTAMP = 'google.protobuf.Timestamp';
export const DURATION = 'google.protobuf.Duration';

/** The top-level attributes; any other top-level name is refused ("undeclared reference" in Google's CEL compiler, cel-go). */
export const ATTRIBUTE_OBJECTS: readonly AttributeObject[] = [
  {
    path: 'request',
    type: 'google.iam.Request',
    // "Date/time attributes": request.time; "URL host/path attributes": request.host, request.path;
    // "Access levels attribute": request.auth.access_levels.
    fields: { time: TIMESTAMP, host: 'string', path: 'string', auth: 'google.iam.RequestAuth' },
    section: 'Request attributes (Date/time, URL host/path, Access levels)',
  },
  {
    path: 'request.auth',
    type: 'google.iam.RequestAuth',
    fields: { access_levels: 'list<string>' },
    section: 'Access levels attribute',
  },
  {
    path: 'resource',
    type: 'google.iam.Resource',
    // "Resource service attribute", "Resource type attribute", "Resource name attribute".
    fields: { service: 'string', type: 'string', name: 'string' },
    section: 'Resource attributes',
  },
  {
    path: 'destination',
    type: 'google.iam.Destination',
    // IAP TCP forwarding: "destination.ip" a string, "destination.port" an integer.
    fields: { ip: 'string', port: 'int' },
    section: 'Destination IP/port attributes',
  },
  { path: 'api', type: 'google.iam.Api', fields: {}, section: 'API attributes' },
  { path: 'compute', type: 'google.iam.Compute', fields: {}, section: 'Forwarding rule attributes' },
  {
    path: 'principal',
    type: 'google.iam.Principal',
    fields: { type: 'string', subject: 'string' },
    section: 'Principal attributes',
    uncertain:
      "Google documents principal.type and principal.subject for principal access boundary policy bindings; an allow policy's condition may be refused with them",
  },
];

/** A function of IAM conditions beyond CEL's standard library, as a cel-js signature. */
export interface AttributeFunction {
  readonly signature: string;
  /** How a condition calls it, for messages: `resource.matchTag(key, value)`. */
  readonly usage: string;
  readonly section: string;
}

export const ATTRIBUTE_FUNCTIONS: readonly AttributeFunction[] = [
  // "Resource tags": hasTagKey, hasTagKeyId, matchTag, matchTagId, each a bool.
  { signature: 'google.iam.Resource.hasTagKey(string): bool', usage: 'resource.hasTagKey("123456789012/env")', section: 'Resource tags' },
  {
    signature: 'google.iam.Resource.hasTagKeyId(string): bool',
    usage: 'resource.hasTagKeyId("tagKeys/123456789012")',
    section: 'Resource tags',
  },
  {
    signature: 'google.iam.Resource.matchTag(string, string): bool',
    usage: 'resource.matchTag("123456789012/env", "prod")',
    section: 'Resource tags',
  },
  {
    signature: 'google.iam.Resource.matchTagId(string, string): bool',
    usage: 'resource.matchTagId("tagKeys/123456789012", "tagValues/567890123456")',
    section: 'Resource tags',
  },
  // "API attributes": api.getAttribute(attributeName, defaultValue), the value's type that of the default.
  {
    signature: 'google.iam.Api.getAttribute(string, A): A',
    usage: "api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', [])",
    section: 'API attributes',
  },
  // "API attributes": hasOnly() on a list attribute.
  { signature: 'list<A>.hasOnly(list<A>): bool', usage: "hasOnly(['roles/viewer'])", section: 'API attributes' },
  // "Resource name attribute": extract() takes a template and returns the part it matches, or "".
  {
    signature: 'string.extract(string): string',
    usage: 'resource.name.extract("projects/{project}/")',
    section: 'Resource name attribute',
  },
  // "Forwarding rule attributes".
  {
    signature: 'google.iam.Compute.isForwardingRuleCreationOperation(): bool',
    usage: 'compute.isForwardingRuleCreationOperation()',
    section: 'Forwarding rule attributes',
  },
  {
    signature: 'google.iam.Compute.matchLoadBalancingSchemes(list<string>): bool',
    usage: "compute.matchLoadBalancingSchemes(['INTERNAL', 'INTERNAL_MANAGED'])",
    section: 'Forwarding rule attributes',
  },
];

/**
 * Overloads of CEL's standard library (cel-spec langdef.md, "List of Standard
 * Definitions") that cel-js 8 lacks; cel-go, Google's CEL compiler, has them.
 */
export const STANDARD_OVERLOADS_CEL_JS_LACKS: readonly string[] = [
  'matches(string, string): bool',
  'int(uint): int',
  `string(${TIMESTAMP}): string`,
  `string(${DURATION}): string`,
  `int(${TIMESTAMP}): int`,
  `timestamp(${TIMESTAMP}): ${TIMESTAMP}`,
  `duration(${DURATION}): ${DURATION}`,
];

/** The `api.getAttribute` keys Google's reference ("API attributes") documents, with their types. */
export const API_ATTRIBUTES: Readonly<Record<string, string>> = {
  // Role grants a setIamPolicy call modifies: a list of role names (used with hasOnly()).
  'iam.googleapis.com/modifiedGrantsByRole': 'list<string>',
  // The prefix of a Cloud Storage objects.list request: a string.
  'storage.googleapis.com/objectListPrefix': 'string',
};

/**
 * Functions cel-js declares beyond CEL's standard library (cel-go's strings
 * and bindings extensions, cel-js's own bytes helpers): Google documents none
 * of them for IAM conditions, and whether its environment has them is not
 * published, so a use of one is a warning.
 */
export const EXTENSION_FUNCTIONS: Readonly<Record<string, string>> = {
  lowerAscii: "cel-go's strings extension",
  upperAscii: "cel-go's strings extension",
  trim: "cel-go's strings extension",
  indexOf: "cel-go's strings extension",
  lastIndexOf: "cel-go's strings extension",
  substring: "cel-go's strings extension",
  split: "cel-go's strings extension",
  join: "cel-go's strings extension",
  json: "cel-js's bytes functions",
  hex: "cel-js's bytes functions",
  base64: "cel-js's bytes functions",
  at: "cel-js's bytes functions",
  bind: "cel-go's bindings extension (cel.bind)",
};
