/**
 * Durations as Terraform configurations write them (Go's
 * `time.ParseDuration`, which the `timeouts` blocks of Terraform providers
 * use): a sequence of numbers with units, e.g. `90s`, `2m`, `1m30s`, `500ms`.
 */
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Milliseconds of `text`, or undefined when it is not such a duration (negative ones included). */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) total += Number(amount) * UNIT_MS[unit];
  return Math.round(total);
}

/** `125000` → `2m5s`, `4200` → `4.2s`: how long something took, for messages. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 100) / 10;
  return minutes > 0 ? `${minutes}m${seconds > 0 ? `${seconds}s` : ''}` : `${seconds}s`;
}
