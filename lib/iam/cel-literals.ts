import { celNodes, isCelNode, stringLiteral, type CelNode } from './cel-ast';

/**
 * The `timestamp("...")` and `duration("...")` literals of a condition, parsed
 * as Google's CEL implementation (cel-go) parses them when it evaluates them:
 * a literal it cannot parse makes the call an error, and an IAM condition
 * whose evaluation fails is false (the binding never applies). Type checking
 * cannot see this (both calls take any string), so this does.
 *
 * - timestamp: cel-go's `timestamp(string)` parses with Go's
 *   `time.Parse(time.RFC3339, s)` (RFC 3339: `2027-01-01T00:00:00Z`,
 *   `2027-01-01T09:00:00.5+01:00`; a date that does not exist is refused)
 *   and refuses a time outside CEL's range, 0001-01-01T00:00:00Z to
 *   9999-12-31T23:59:59.999999999Z (cel-spec langdef.md, "Timestamp and
 *   duration": "The timestamp ... range [0001-01-01, 9999-12-31]").
 * - duration: cel-go's `duration(string)` parses with Go's
 *   `time.ParseDuration`: a sequence of decimal numbers, each with a unit
 *   (`h`, `m`, `s`, `ms`, `us`/`µs`, `ns`), optionally signed: `3600s`,
 *   `1.5h`, `-1m30s`; it must fit 64-bit nanoseconds (about 292 years).
 */

/** Where a literal is wrong and why. */
export interface LiteralFinding {
  readonly offset: number;
  readonly message: string;
}

const EXAMPLE_TIMESTAMP = 'timestamp("2027-01-01T00:00:00Z")';
const EXAMPLE_DURATION = 'duration("3600s")';

/** The first timestamp or duration literal of the parsed expression that Google's CEL cannot parse, or undefined. */
export function celLiteralError(ast: CelNode): LiteralFinding | undefined {
  for (const node of celNodes(ast)) {
    if (node.op !== 'call' || !Array.isArray(node.args)) continue;
    const [name, args] = node.args as [unknown, unknown];
    if ((name !== 'timestamp' && name !== 'duration') || !Array.isArray(args) || args.length !== 1) continue;
    const literal = stringLiteral(args[0]);
    if (literal === undefined) continue;
    const problem = name === 'timestamp' ? timestampProblem(literal) : durationProblem(literal);
    if (problem === undefined) continue;
    const offset = isCelNode(args[0]) ? args[0].start : node.start;
    const example = name === 'timestamp' ? EXAMPLE_TIMESTAMP : EXAMPLE_DURATION;
    return { offset, message: `\`${name}(${JSON.stringify(literal)})\` is not a valid ${name}: ${problem}; write e.g. \`${example}\`` };
  }
  return undefined;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Why Go's RFC 3339 parser (or CEL's range) refuses `text`; undefined when it parses. */
export function timestampProblem(text: string): string | undefined {
  const match = RFC3339.exec(text);
  if (!match) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return 'a date alone is not an RFC 3339 time; add the time and its zone, e.g. T00:00:00Z';
    return 'expected an RFC 3339 time, YYYY-MM-DDTHH:MM:SS with optional fractional seconds and a zone (Z or ±HH:MM)';
  }
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (month < 1 || month > 12) return `month ${match[2]} does not exist`;
  const days = daysIn(year, month);
  if (day < 1 || day > days)
    return `${MONTHS[month - 1]} ${year} has no day ${match[3]}${day > days && day <= 31 ? ` (it has ${days} days)` : ''}`;
  if (hour > 23) return `hour ${match[4]} does not exist (00 to 23)`;
  if (minute > 59) return `minute ${match[5]} does not exist (00 to 59)`;
  if (second > 59) return `second ${match[6]} does not exist (00 to 59; Go's parser takes no leap second)`;
  const local = utcMillis(year, month, day, hour, minute, second);
  let utc = local;
  if (match[8] !== 'Z') {
    const [offsetHours, offsetMinutes] = [Number(match[9]), Number(match[10])];
    if (offsetHours > 23 || offsetMinutes > 59) return `the zone offset ${match[8]} does not exist`;
    utc = local - (match[8].startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  if (utc < MIN_TIMESTAMP || utc >= MAX_TIMESTAMP_EXCLUSIVE) return "the time, in UTC, is outside CEL's range (years 0001 to 9999)";
  return undefined;
}

/** Milliseconds since the epoch of a UTC date and time (Date.UTC would read years 0 to 99 as 1900 to 1999). */
function utcMillis(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** CEL's range: 0001-01-01T00:00:00Z up to, not including, 10000-01-01T00:00:00Z. */
const MIN_TIMESTAMP = utcMillis(1, 1, 1, 0, 0, 0);
const MAX_TIMESTAMP_EXCLUSIVE = utcMillis(10000, 1, 1, 0, 0, 0);

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Go's units (time.ParseDuration), in nanoseconds. */
const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 MICRO SIGN
  μs: 1_000n, // U+03BC GREEK SMALL LETTER MU
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const COMPONENT = /(\d*)(?:\.(\d*))?([^\d.]*)/y;
const INT64_MAX = 2n ** 63n - 1n;

/** Why Go's time.ParseDuration refuses `text`; undefined when it parses. */
export function durationProblem(text: string): string | undefined {
  const unsigned = text.replace(/^[-+]/, '');
  const negative = text.startsWith('-');
  if (unsigned === '0') return undefined;
  const expected = 'expected numbers with units, e.g. 3600s, 1.5h or 1h30m (units h, m, s, ms, us, ns)';
  if (unsigned === '') return expected;
  let total = 0n;
  COMPONENT.lastIndex = 0;
  while (COMPONENT.lastIndex < unsigned.length) {
    const start = COMPONENT.lastIndex;
    const match = COMPONENT.exec(unsigned);
    if (!match || COMPONENT.lastIndex === start) return expected;
    const [, whole, fraction, unit] = match;
    if (whole === '' && (fraction === undefined || fraction === '')) return expected;
    if (unit === '') return `the number ${match[0]} has no unit (h, m, s, ms, us, ns)`;
    const scale = UNITS[unit];
    if (scale === undefined) return `${JSON.stringify(unit)} is not a unit; Go's durations take h, m, s, ms, us and ns`;
    total += BigInt(whole === '' ? '0' : whole) * scale + fractionOf(fraction ?? '', scale);
    if (total > INT64_MAX + (negative ? 1n : 0n)) return "it does not fit Go's 64-bit nanoseconds (about 292 years)";
  }
  return undefined;
}

/** `fraction` (decimal digits after the point) of `scale` nanoseconds, rounded down as Go does. */
function fractionOf(fraction: string, scale: bigint): bigint {
  if (fraction === '') return 0n;
  return (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length);
}
