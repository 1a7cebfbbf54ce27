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
 * Runs each measurement in turn, `runs` rounds (after one warm-up round), so
 * that machine noise hits them all alike. Returns every sample by name.
 */
export async function compareAll<K extends string>(
  runs: number,
  measurements: Record<K, () => Promise<number>>,
): Promise<Record<K, number[]>> {
  const names = Object.keys(measurements) as K[];
  for (const name of names) await measurements[name]();
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < runs; i++) {
    for (const name of names) samples[name].push(await measurements[name]());
  }
  return samples;
}

/** `compareAll` of one subject against its baseline. */
export async function compare(runs: number, subject: () => Promise<number>, baseline: () => Promise<number>): Promise<Comparison> {
  return compareAll(runs, { baseline, subject });
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
