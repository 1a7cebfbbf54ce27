/**
 * The language of the program that calls the library, so that messages name members and write hints as
 * its user types them. jsii's runtimes tell the kernel process who they are in `JSII_AGENT`
 * (`Python/3.11.2`, `Java/17.0.15`, `DotNet/8.0.11/...`, Go's `go1.23/linux/amd64`); unset is TypeScript or
 * JavaScript. Every message that names a member of the API asks here.
 */
import { packageManifest } from '../install/provider-package';
import { styleFieldPath, styleName, styleShapes, type NameStyle } from '../iam/name-style';

/** One jsii language: how its users spell members, calls, structs and lists. */
export interface CallerLanguage {
  readonly name: 'TypeScript' | 'Python' | 'Java' | 'C#' | 'Go';
  /** How a member (property, argument or method) is spelt. */
  readonly style: NameStyle;
  /** A static method's call, e.g. Go's `pkg.IamSuppressions_AddSuppressions(a, b)`. */
  staticCall(type: string, method: string, args: readonly string[]): string;
  /** A struct value of string fields (camelCase names), e.g. Python's `IamSuppression(id="x")`. */
  struct(type: string, fields: Readonly<Record<string, string>>): string;
  /** A list of `type` values. */
  list(type: string, items: readonly string[]): string;
}

const quote = (value: string) => JSON.stringify(value);
const entries = (fields: Readonly<Record<string, string>>, style: NameStyle) =>
  Object.entries(fields).map(([name, value]) => [styleName(name, style), quote(value)] as const);

const TYPESCRIPT: CallerLanguage = {
  name: 'TypeScript',
  style: 'camel',
  staticCall: (type, method, args) => `${type}.${method}(${args.join(', ')})`,
  struct: (_type, fields) =>
    `{ ${Object.entries(fields)
      .map(([n, v]) => `${n}: '${v.replace(/['\\]/g, '\\$&')}'`)
      .join(', ')} }`,
  list: (_type, items) => `[${items.join(', ')}]`,
};

const PYTHON: CallerLanguage = {
  name: 'Python',
  style: 'snake',
  staticCall: (type, method, args) => `${type}.${styleName(method, 'snake')}(${args.join(', ')})`,
  struct: (type, fields) =>
    `${type}(${entries(fields, 'snake')
      .map(([n, v]) => `${n}=${v}`)
      .join(', ')})`,
  list: (_type, items) => `[${items.join(', ')}]`,
};

const JAVA: CallerLanguage = {
  name: 'Java',
  style: 'camel',
  staticCall: TYPESCRIPT.staticCall,
  struct: (type, fields) =>
    `${type}.builder()${entries(fields, 'camel')
      .map(([n, v]) => `.${n}(${v})`)
      .join('')}.build()`,
  list: (_type, items) => `List.of(${items.join(', ')})`,
};

const CSHARP: CallerLanguage = {
  name: 'C#',
  style: 'pascal',
  staticCall: (type, method, args) => `${type}.${styleName(method, 'pascal')}(${args.join(', ')})`,
  struct: (type, fields) =>
    `new ${type} { ${entries(fields, 'pascal')
      .map(([n, v]) => `${n} = ${v}`)
      .join(', ')} }`,
  list: (type, items) => `new ${type}[] { ${items.join(', ')} }`,
};

/** Go's package is the npm name without dashes (`cdktfgoogleiam`, `cdktngoogleiam`), as jsii-pacmak names it. */
const goPackage = () => packageManifest().name.replace(/-/g, '');
const GO: CallerLanguage = {
  name: 'Go',
  style: 'pascal',
  staticCall: (type, method, args) => `${goPackage()}.${type}_${styleName(method, 'pascal')}(${args.join(', ')})`,
  struct: (type, fields) =>
    `&${goPackage()}.${type}{${entries(fields, 'pascal')
      .map(([n, v]) => `${n}: jsii.String(${v})`)
      .join(', ')}}`,
  list: (type, items) => `&[]*${goPackage()}.${type}{${items.join(', ')}}`,
};

/** The calling language, from `JSII_AGENT`. */
export function callerLanguage(env: NodeJS.ProcessEnv = process.env): CallerLanguage {
  const agent = env.JSII_AGENT ?? '';
  if (/^Python\//i.test(agent)) return PYTHON;
  if (/^Java\//i.test(agent)) return JAVA;
  if (/^DotNet\//i.test(agent)) return CSHARP;
  if (/^go\d/i.test(agent)) return GO;
  return TYPESCRIPT;
}

/** A field path (`grants[2].condition.expression`) as the calling language spells it. */
export function callerField(field: string, language: CallerLanguage = callerLanguage()): string {
  return styleFieldPath(field, language.style);
}

/** A message's struct shapes (`{ service, apiVersion, name }`) with the field names the calling language uses. */
export function callerShapes(text: string, language: CallerLanguage = callerLanguage()): string {
  return styleShapes(text, language.style);
}

/** `Type.method` (a lookup or static method) as the calling language spells it, e.g. `GoogleLookups.get_import_job`. */
export function callerMethod(type: string, method: string, language: CallerLanguage = callerLanguage()): string {
  return `${type}.${styleName(method, language.style)}`;
}

/**
 * A call with its arguments as the calling language writes them, for messages: Python's keyword arguments
 * (`GoogleLookups.get_import_job(import_job_id="x")`), a struct's JSON elsewhere, its keys spelt by the language.
 */
export function callerCall(method: string, args: object, language: CallerLanguage = callerLanguage()): string {
  const given = Object.entries(args).filter(([, value]) => value !== undefined);
  if (language.name === 'Python') {
    return `${method}(${given.map(([name, value]) => `${styleName(name, 'snake')}=${JSON.stringify(value)}`).join(', ')})`;
  }
  return `${method}(${JSON.stringify(Object.fromEntries(given.map(([name, value]) => [styleName(name, language.style), value])))})`;
}
