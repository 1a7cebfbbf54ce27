/** Small statistics for benchmarks: medians of alternating, side-by-side runs. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface Comparison {
  readonly subject: number[];
  readonly baseline: number[];
}

/**
 * Runs subject and baseline alternately `runs` times (after one warm-up
 * each) so that machine noise hits both alike.
 */
export async function compare(runs: number, subject: () => Promise<number>, baseline: () => Promise<number>): Promise<Comparison> {
  await subject();
  await baseline();
  const result: Comparison = { subject: [], baseline: [] };
  for (let i = 0; i < runs; i++) {
    result.baseline.push(await baseline());
    result.subject.push(await subject());
  }
  return result;
}

export function ratio(c: Comparison): number {
  return median(c.subject) / median(c.baseline);
}

export interface Row {
  readonly benchmark: string;
  readonly measured: string;
  readonly baseline: string;
  readonly ratio: string;
  readonly goal: string;
  readonly met: boolean;
}

export function printTable(rows: readonly Row[]): string {
  const header = ['benchmark', 'measured (median)', 'baseline (median)', 'ratio', 'goal', 'met'];
  const lines = rows.map((r) => [r.benchmark, r.measured, r.baseline, r.ratio, r.goal, r.met ? 'yes' : 'NO']);
  const table = [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
  return table;
}
