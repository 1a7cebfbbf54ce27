/**
 * The public API of a jsii assembly as text, one line per type and member:
 * what Python, Java, Go and .NET users compile against (names, kinds, bases,
 * members, their types, optionality, static/protected/readonly), and nothing
 * that changes with where the code lives (file, line, symbol ids) or with its
 * docs. The framework's name (`cdktf` or `cdktn`) and the assembly's are
 * written `<framework>` and `<lib>`, so both flavours give the same text.
 *
 * `npx ts-node --transpile-only test/support/public-api.ts` prints the
 * package's; test/package/public-api.test.ts compares it with the committed
 * test/package/public-api.txt.
 */
import * as fs from 'fs';
import * as path from 'path';

interface TypeRef {
  readonly primitive?: string;
  readonly fqn?: string;
  readonly collection?: { readonly kind: string; readonly elementtype: TypeRef };
  readonly union?: { readonly types: readonly TypeRef[] };
}

interface Parameter {
  readonly name: string;
  readonly type: TypeRef;
  readonly optional?: boolean;
  readonly variadic?: boolean;
}

interface Callable {
  readonly name?: string;
  readonly parameters?: readonly Parameter[];
  readonly returns?: { readonly type: TypeRef; readonly optional?: boolean };
  readonly static?: boolean;
  readonly protected?: boolean;
  readonly abstract?: boolean;
}

interface Property {
  readonly name: string;
  readonly type: TypeRef;
  readonly optional?: boolean;
  readonly static?: boolean;
  readonly protected?: boolean;
  readonly abstract?: boolean;
  readonly immutable?: boolean;
  readonly const?: boolean;
  readonly overrides?: string;
}

interface JsiiType {
  readonly kind: 'class' | 'interface' | 'enum';
  readonly fqn: string;
  readonly base?: string;
  readonly interfaces?: readonly string[];
  readonly datatype?: boolean;
  readonly abstract?: boolean;
  readonly initializer?: Callable;
  readonly methods?: readonly Callable[];
  readonly properties?: readonly Property[];
  readonly members?: readonly { readonly name: string }[];
}

/** The public API of the assembly in `packageDir` (its `.jsii`), sorted lines. */
export function publicApi(packageDir: string): string[] {
  const assembly = JSON.parse(fs.readFileSync(path.join(packageDir, '.jsii'), 'utf8')) as {
    name: string;
    types: Record<string, JsiiType>;
  };
  const name = (fqn: string): string =>
    fqn.startsWith(`${assembly.name}.`) ? `<lib>.${fqn.slice(assembly.name.length + 1)}` : fqn.replace(/^cdkt[fn]\./, '<framework>.');
  const type = (ref: TypeRef): string => {
    if (ref.primitive) return ref.primitive;
    if (ref.fqn) return name(ref.fqn);
    if (ref.collection) return `${ref.collection.kind}<${type(ref.collection.elementtype)}>`;
    if (ref.union) return ref.union.types.map(type).sort().join(' | ');
    throw new Error(`unknown type reference ${JSON.stringify(ref)}`);
  };
  const modifiers = (m: { static?: boolean; protected?: boolean; abstract?: boolean }): string =>
    [m.protected ? 'protected ' : '', m.static ? 'static ' : '', m.abstract ? 'abstract ' : ''].join('');
  const parameters = (c: Callable): string =>
    (c.parameters ?? []).map((p) => `${p.variadic ? '...' : ''}${p.name}${p.optional ? '?' : ''}: ${type(p.type)}`).join(', ');
  const lines: string[] = [];
  for (const t of Object.values(assembly.types)) {
    const head = name(t.fqn);
    const heritage = [
      t.base ? ` extends ${name(t.base)}` : '',
      t.interfaces?.length ? ` ${t.kind === 'interface' ? 'extends' : 'implements'} ${t.interfaces.map(name).sort().join(', ')}` : '',
    ].join('');
    lines.push(`${head}: ${t.abstract ? 'abstract ' : ''}${t.datatype ? 'struct' : t.kind}${heritage}`);
    if (t.initializer) lines.push(`${head}: ${modifiers(t.initializer)}constructor(${parameters(t.initializer)})`);
    for (const m of t.methods ?? []) {
      const returns = m.returns ? `${type(m.returns.type)}${m.returns.optional ? ' | undefined' : ''}` : 'void';
      lines.push(`${head}: ${modifiers(m)}${m.name}(${parameters(m)}): ${returns}`);
    }
    for (const p of t.properties ?? []) {
      const readonly = p.const ? 'const ' : p.immutable ? 'readonly ' : '';
      lines.push(`${head}: ${modifiers(p)}${readonly}${p.name}${p.optional ? '?' : ''}: ${type(p.type)}`);
    }
    for (const m of t.members ?? []) lines.push(`${head}: ${m.name}`);
  }
  return lines.sort();
}

if (require.main === module) process.stdout.write(`${publicApi(path.join(__dirname, '..', '..')).join('\n')}\n`);
