/**
 * Google's Discovery schemas, as the pinned `googleapis` package carries them
 * (its generated client declares each schema of an API version's Discovery
 * document as a `Schema$<Name>` interface, every field optional), and what a
 * lookup must make of an answer: every field of the schema, the value Google
 * sent where it sent one, absent (Direct form) or null (Output form) where it
 * did not. The field-by-field tests of the lookups are driven from here, so a
 * field of Google's schema cannot be left out of them.
 */
import * as fs from 'fs';
import * as path from 'path';

/** What a field holds, as the generated client types it. */
export type FieldType =
  | { readonly kind: 'scalar'; readonly scalar: 'string' | 'number' | 'boolean' }
  | { readonly kind: 'strings' }
  | { readonly kind: 'map' }
  | { readonly kind: 'message'; readonly schema: string }
  | { readonly kind: 'messages'; readonly schema: string };

export interface SchemaField {
  readonly name: string;
  readonly type: FieldType;
}

type Json = Record<string, unknown>;

export class DiscoverySchema {
  /** The schemas of one API version, e.g. `('migrationcenter', 'v1alpha1')`. */
  public static of(api: string, version: string): DiscoverySchema {
    const root = path.dirname(require.resolve('googleapis/package.json'));
    return new DiscoverySchema(fs.readFileSync(path.join(root, 'build', 'src', 'apis', api, `${version}.d.ts`), 'utf8'));
  }

  private constructor(private readonly dts: string) {}

  /** The fields of `Schema$<name>`, in the order the client declares them. */
  public fields(name: string): SchemaField[] {
    const start = this.dts.indexOf(`export interface Schema$${name} {`);
    if (start < 0) throw new Error(`no schema ${name}`);
    const body = this.dts.slice(start, this.dts.indexOf('\n    }', start));
    return [...body.matchAll(/\n {8}(\w+)\?: ([^;\n]+)/g)].map(([, field, type]) => ({ name: field, type: fieldType(field, type) }));
  }

  /** Every schema reachable from `root`, `root` first. */
  public reachable(root: string): string[] {
    const found = [root];
    for (let i = 0; i < found.length; i++) {
      for (const { type } of this.fields(found[i])) {
        if ((type.kind === 'message' || type.kind === 'messages') && !found.includes(type.schema)) found.push(type.schema);
      }
    }
    return found;
  }

  /**
   * A message of `name` with every field set, at every level (one item per
   * list); `values` sets a field (`Schema.field`) to a value of its own.
   */
  public full(name: string, values: Readonly<Record<string, unknown>> = {}): Json {
    const message: Json = {};
    for (const { name: field, type } of this.fields(name)) {
      const own = values[`${name}.${field}`];
      if (own !== undefined) message[field] = own;
      else if (type.kind === 'message') message[field] = this.full(type.schema, values);
      else if (type.kind === 'messages') message[field] = [this.full(type.schema, values)];
      else if (type.kind === 'strings') message[field] = [`${field}-1`, `${field}-2`];
      else if (type.kind === 'map') message[field] = { [`${field}-key`]: `${field}-value` };
      else message[field] = type.scalar === 'string' ? `${field}-value` : type.scalar === 'number' ? 7 : true;
    }
    return message;
  }

  /**
   * Messages of `name` with every other field absent: each holds only its
   * messages (one item per list), down to a depth, from none (`{}`) to all of
   * them. Together they leave each field out where its message is there:
   * a message field below each depth, every other field everywhere.
   */
  public skeletons(name: string, values: Readonly<Record<string, unknown>> = {}): Json[] {
    const answers: Json[] = [];
    for (let depth = 0; ; depth++) {
      const answer = this.skeleton(name, values, depth);
      if (answers.length > 0 && JSON.stringify(answer) === JSON.stringify(answers[answers.length - 1])) return answers;
      answers.push(answer);
    }
  }

  private skeleton(name: string, values: Readonly<Record<string, unknown>>, depth: number): Json {
    const message: Json = {};
    for (const { name: field, type } of this.fields(name)) {
      const own = values[`${name}.${field}`];
      if (own !== undefined) message[field] = own;
      else if (depth === 0) continue;
      else if (type.kind === 'message') message[field] = this.skeleton(type.schema, values, depth - 1);
      else if (type.kind === 'messages') message[field] = [this.skeleton(type.schema, values, depth - 1)];
    }
    return message;
  }

  /**
   * What a lookup returns for `answer` (a message of `name`): every field of
   * the schema, Google's value where it sent one, else `absent` (undefined
   * for the Direct form, null for the Output form). `key` names a field in
   * the result (`Schema.field` → its name, e.g. a rename or snake_case).
   */
  public expected(
    name: string,
    answer: unknown,
    absent: null | undefined,
    key: (schema: string, field: string) => string = (_s, f) => f,
  ): Json {
    const message = answer as Json;
    const result: Json = {};
    for (const { name: field, type } of this.fields(name)) {
      const value = message[field];
      const out = key(name, field);
      if (value === undefined) result[out] = absent;
      else if (type.kind === 'message') result[out] = this.expected(type.schema, value, absent, key);
      else if (type.kind === 'messages') result[out] = (value as unknown[]).map((item) => this.expected(type.schema, item, absent, key));
      else result[out] = value;
    }
    return result;
  }

  /** Each field (`Schema.field`) reachable from `root` that `answer` sends, and each it leaves out, where its message is there. */
  public presence(root: string, answer: unknown): { readonly sent: string[]; readonly absent: string[] } {
    const sent: string[] = [];
    const absent: string[] = [];
    const visit = (name: string, message: Json) => {
      for (const { name: field, type } of this.fields(name)) {
        const value = message[field];
        (value === undefined ? absent : sent).push(`${name}.${field}`);
        if (value === undefined) continue;
        if (type.kind === 'message') visit(type.schema, value as Json);
        if (type.kind === 'messages') (value as Json[]).forEach((item) => visit(type.schema, item));
      }
    };
    visit(root, answer as Json);
    return { sent, absent };
  }

  /** Every field (`Schema.field`) of every schema reachable from `root`. */
  public allFields(root: string): string[] {
    return this.reachable(root).flatMap((name) => this.fields(name).map((f) => `${name}.${f.name}`));
  }
}

function fieldType(field: string, type: string): FieldType {
  const t = type.trim();
  let match: RegExpExecArray | null;
  if ((match = /^Schema\$(\w+)\[\]$/.exec(t))) return { kind: 'messages', schema: match[1] };
  if ((match = /^Schema\$(\w+)$/.exec(t))) return { kind: 'message', schema: match[1] };
  if (/^string\[\] \| null$/.test(t)) return { kind: 'strings' };
  if (t === '{') return { kind: 'map' };
  if ((match = /^(string|number|boolean) \| null$/.exec(t))) return { kind: 'scalar', scalar: match[1] as 'string' | 'number' | 'boolean' };
  throw new Error(`${field}: a field type the tests do not know: ${t}`);
}

/** `auditLogConfigs` → `audit_log_configs`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * The policy fields an answer must have to be taken for Google's (lib/api/policy-shape.ts refuses it
 * otherwise; Google always sends them), with a value each: every policy a test reads has them.
 */
export const POLICY_CHECKED_FIELDS: Readonly<Record<string, string>> = {
  'GoogleIamV1Policy.etag': 'BwX=',
  'GoogleIamV1Binding.role': 'roles/compute.networkUser',
  'Expr.expression': 'request.time < timestamp("2030-01-01T00:00:00Z")',
  'GoogleIamV1AuditConfig.service': 'allServices',
};
