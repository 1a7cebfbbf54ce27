/**
 * The two JSON steps of the real provider, which is written in Go:
 * `json.Marshal(map[string]string)` for the query the program reads, and
 * `json.Unmarshal(output, &map[string]string)` for its result. Reproduced
 * here byte for byte and error message for error message, because programs
 * and tests see both.
 */

/**
 * Go's json.Marshal of a map[string]string: keys sorted by their UTF-8
 * bytes, and <, >, &, U+2028 and U+2029 escaped as \u00XX (Go's HTML-safe
 * default). Everything else is escaped as JSON.stringify does.
 */
export function goMarshalStringMap(map: ReadonlyMap<string, string>): string {
  const keys = [...map.keys()].sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
  const body = keys.map((key) => `${goQuote(key)}:${goQuote(map.get(key) as string)}`).join(',');
  return `{${body}}`;
}

function goQuote(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The outcome of Go's json.Unmarshal into a map[string]string. */
export type GoUnmarshalResult =
  /** `value` is null when the document is the literal `null`, as Go leaves the map nil. */
  { readonly ok: true; readonly value: Map<string, string> | null } | { readonly ok: false; readonly error: string };

/**
 * Go's json.Unmarshal(data, &map[string]string{}): a syntax error anywhere
 * wins (Go validates the whole input first); then the first value of the
 * wrong type, in document order, is the error. A null member value becomes
 * "" (Go leaves the string at its zero value); later duplicate keys win.
 */
export function goUnmarshalStringMap(data: Uint8Array): GoUnmarshalResult {
  // ignoreBOM: Go does not skip a byte order mark either (it is a syntax error).
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(data);
  let document: JsonValue;
  try {
    document = new Parser(text).document();
  } catch (e) {
    if (e instanceof SyntaxErrorGo) return { ok: false, error: e.message };
    // Go stops at 10000 levels of nesting with this message; the JS stack may stop sooner.
    if (e instanceof RangeError) return { ok: false, error: 'exceeded max depth' };
    throw e;
  }
  if (document.kind === 'null') return { ok: true, value: null };
  if (document.kind !== 'object') return { ok: false, error: typeError(document.kind, 'map[string]string') };
  const map = new Map<string, string>();
  let firstError: string | undefined;
  for (const [key, member] of document.members) {
    if (member.kind === 'string') map.set(key, member.value);
    else if (member.kind === 'null') map.set(key, '');
    else firstError ??= typeError(member.kind, 'string');
  }
  return firstError === undefined ? { ok: true, value: map } : { ok: false, error: firstError };
}

function typeError(kind: JsonValue['kind'], goType: string): string {
  const described = kind === 'boolean' ? 'bool' : kind;
  return `json: cannot unmarshal ${described} into Go value of type ${goType}`;
}

type JsonValue =
  | { readonly kind: 'null' | 'boolean' | 'number' | 'array' }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'object'; readonly members: Array<[string, JsonValue]> };

class SyntaxErrorGo extends Error {}

const WHITESPACE = ' \t\n\r';

/** A recursive-descent JSON parser whose errors are the messages of Go's encoding/json scanner. */
class Parser {
  private pos = 0;

  constructor(private readonly text: string) {}

  public document(): JsonValue {
    const value = this.value();
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail('after top-level value');
    return value;
  }

  private value(): JsonValue {
    this.skipWhitespace();
    const c = this.peek();
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return { kind: 'string', value: this.string() };
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    if (c === 't') return this.literal('true', 'boolean');
    if (c === 'f') return this.literal('false', 'boolean');
    if (c === 'n') return this.literal('null', 'null');
    return this.fail('looking for beginning of value');
  }

  private object(): JsonValue {
    this.pos++;
    const members: Array<[string, JsonValue]> = [];
    this.skipWhitespace();
    if (this.peek() === '}') {
      this.pos++;
      return { kind: 'object', members };
    }
    for (;;) {
      this.skipWhitespace();
      if (this.peek() !== '"') this.fail('looking for beginning of object key string');
      const key = this.string();
      this.skipWhitespace();
      if (this.peek() !== ':') this.fail('after object key');
      this.pos++;
      members.push([key, this.value()]);
      this.skipWhitespace();
      const c = this.peek();
      this.pos++;
      if (c === '}') return { kind: 'object', members };
      if (c !== ',') this.fail('after object key:value pair', -1);
    }
  }

  private array(): JsonValue {
    this.pos++;
    this.skipWhitespace();
    if (this.peek() === ']') {
      this.pos++;
      return { kind: 'array' };
    }
    for (;;) {
      this.value();
      this.skipWhitespace();
      const c = this.peek();
      this.pos++;
      if (c === ']') return { kind: 'array' };
      if (c !== ',') this.fail('after array element', -1);
    }
  }

  private string(): string {
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.peek();
      this.pos++;
      if (c === '"') return out;
      if (c === '\\') {
        const e = this.peek();
        this.pos++;
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e === 'u') out += this.unicodeEscape();
        else if (e in simple) out += simple[e];
        else this.fail('in string escape code', -1);
      } else if (c < ' ') {
        this.fail('in string literal', -1);
      } else {
        out += c;
      }
    }
  }

  /** \uXXXX, pairing surrogates as Go does; a lone surrogate becomes U+FFFD. */
  private unicodeEscape(): string {
    const unit = this.hex4();
    if (unit >= 0xd800 && unit < 0xdc00 && this.text.startsWith('\\u', this.pos)) {
      const save = this.pos;
      this.pos += 2;
      const low = this.hex4();
      if (low >= 0xdc00 && low < 0xe000) return String.fromCharCode(unit, low);
      this.pos = save;
    }
    return unit >= 0xd800 && unit < 0xe000 ? '\ufffd' : String.fromCharCode(unit);
  }

  private hex4(): number {
    for (let i = 0; i < 4; i++) {
      if (!/[0-9a-fA-F]/.test(this.peek())) this.fail('in \\u hexadecimal character escape');
      this.pos++;
    }
    return parseInt(this.text.slice(this.pos - 4, this.pos), 16);
  }

  private number(): JsonValue {
    if (this.peek() === '-') this.pos++;
    if (this.peek() === '0') this.pos++;
    else if (this.peek() >= '1' && this.peek() <= '9') this.digits();
    else this.fail('in numeric literal');
    if (this.peek() === '.') {
      this.pos++;
      if (!this.isDigit()) this.fail('after decimal point in numeric literal');
      this.digits();
    }
    if (this.peek() === 'e' || this.peek() === 'E') {
      this.pos++;
      if (this.peek() === '+' || this.peek() === '-') this.pos++;
      if (!this.isDigit()) this.fail('in exponent of numeric literal');
      this.digits();
    }
    return { kind: 'number' };
  }

  private literal(word: string, kind: 'boolean' | 'null'): JsonValue {
    for (let i = 0; i < word.length; i++, this.pos++) {
      if (this.peek() !== word[i]) this.fail(`in literal ${word} (expecting ${quoteChar(word[i])})`);
    }
    return { kind };
  }

  private digits(): void {
    while (this.isDigit()) this.pos++;
  }

  private isDigit(): boolean {
    const c = this.peek();
    return c >= '0' && c <= '9';
  }

  private skipWhitespace(): void {
    while (this.pos < this.text.length && WHITESPACE.includes(this.text[this.pos])) this.pos++;
  }

  /** The current character, or '' at the end. */
  private peek(): string {
    return this.pos < this.text.length ? this.text[this.pos] : '';
  }

  /** Throws Go's error for the character at pos + offset (or the end of input). */
  private fail(context: string, offset = 0): never {
    const at = this.pos + offset;
    if (at >= this.text.length) throw new SyntaxErrorGo('unexpected end of JSON input');
    const code = this.text.codePointAt(at) as number;
    throw new SyntaxErrorGo(`invalid character ${quoteChar(String.fromCodePoint(code))} ${context}`);
  }
}

/** Go's quoteChar: the character in single quotes, escaped as strconv.Quote would. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const named: Record<string, string> = {
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\v': '\\v',
    '\\': '\\\\',
  };
  if (c in named) return `'${named[c]}'`;
  const code = c.codePointAt(0) as number;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  if (code >= 0x80 && code < 0xa0) return `'\\u${code.toString(16).padStart(4, '0')}'`;
  return `'${c}'`;
}
