import * as fs from 'fs';
import * as path from 'path';
import type { JsiiKernel, ObjRef } from './jsii-kernel';

/** The parts of a jsii type reference this reader follows. */
interface TypeRef {
  readonly primitive?: string;
  readonly fqn?: string;
  readonly collection?: { readonly kind: 'array' | 'map'; readonly elementtype: TypeRef };
}

interface Property {
  readonly name: string;
  readonly type: TypeRef;
  readonly static?: boolean;
}

interface TypeInfo {
  readonly kind: string;
  readonly datatype?: boolean;
  readonly properties?: readonly Property[];
  readonly interfaces?: readonly string[];
}

/**
 * A library's jsii assembly (`.jsii`), and values read through the kernel the
 * way a host runtime reads them: a struct the kernel hands out by reference is
 * read one property at a time with `get` (as Python's, Java's and Go's
 * generated proxies do), following the assembly's types.
 */
export class AssemblyReader {
  public static of(packageDir: string): AssemblyReader {
    return new AssemblyReader(
      JSON.parse(fs.readFileSync(path.join(packageDir, '.jsii'), 'utf8')) as { name: string; types: Record<string, TypeInfo> },
    );
  }

  private constructor(private readonly assembly: { name: string; types: Record<string, TypeInfo> }) {}

  /** The assembly's name, the prefix of its type names: `cdktf-google-iam` or `cdktn-google-iam`. */
  public get name(): string {
    return this.assembly.name;
  }

  /** The instance properties a class or struct declares (with those of the interfaces it extends). */
  public properties(fqn: string): Property[] {
    const type = this.assembly.types[fqn];
    if (!type) throw new Error(`${fqn} is not in the assembly ${this.assembly.name}`);
    const own = (type.properties ?? []).filter((p) => !p.static);
    const inherited = (type.interfaces ?? []).filter((i) => i in this.assembly.types).flatMap((i) => this.properties(i));
    return [...own, ...inherited];
  }

  /** Reads a struct of type `fqn` (by reference or by value) into plain data; absent optional fields are left out. */
  public async readStruct(kernel: JsiiKernel, value: unknown, fqn: string): Promise<Record<string, unknown>> {
    return (await this.read(kernel, value, { fqn })) as Record<string, unknown>;
  }

  private async read(kernel: JsiiKernel, value: unknown, type: TypeRef): Promise<unknown> {
    if (value === undefined || value === null || type.primitive) return value;
    if (type.collection?.kind === 'array') {
      const elements: unknown[] = [];
      for (const element of value as unknown[]) elements.push(await this.read(kernel, element, type.collection.elementtype));
      return elements;
    }
    if (type.collection?.kind === 'map') {
      const entries = (value as { '$jsii.map'?: Record<string, unknown> })['$jsii.map'] ?? (value as Record<string, unknown>);
      const read: Record<string, unknown> = {};
      for (const [key, element] of Object.entries(entries)) read[key] = await this.read(kernel, element, type.collection.elementtype);
      return read;
    }
    const info = type.fqn === undefined ? undefined : this.assembly.types[type.fqn];
    if (!info?.datatype) return value;
    const byValue = (value as { '$jsii.struct'?: { data: Record<string, unknown> } })['$jsii.struct']?.data;
    const result: Record<string, unknown> = {};
    for (const property of this.properties(type.fqn!)) {
      const field = byValue ? byValue[property.name] : await kernel.get(value as ObjRef, property.name);
      if (field !== undefined) result[property.name] = await this.read(kernel, field, property.type);
    }
    return result;
  }
}
