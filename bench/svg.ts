/**
 * The scale chart as a hand-written SVG (no dependency): wall time and IAM
 * calls per grant against the number of grants (log scales), ours beside
 * the floor (bare terraform_data) and the peer model, for one policy and for
 * ten; the points measured with the CPU quiet.
 */

export interface ScalePoint {
  readonly grants: number;
  readonly policies: number;
  /** Measured with the CPU kept busy (busyCpu). */
  readonly busy: boolean;
  /** Rounds of ours and the floor; the figures are medians. */
  readonly runs: number;
  readonly oursMs: number;
  readonly oursCallsPerGrant: number;
  readonly oursPeakMiB: number;
  /** As many bare terraform_data, alternating with ours. */
  readonly floorMs: number;
  readonly floorPeakMiB: number;
  /** As many resources of the bench's no-op plugin provider (bench/noop-provider), alternating with ours: a plugin's own floor. */
  readonly noopMs: number;
  readonly noopPeakMiB: number;
  /** terraform.tfstate after the apply, per grant: ours, the no-op provider's, terraform_data's. */
  readonly stateBytesPerGrant: { readonly ours: number; readonly noop: number; readonly floor: number };
  readonly peerMs: number;
  readonly peerCallsPerGrant: number;
  /** getIamPolicy calls of a `terraform plan` of the applied stack (no change), per policy. */
  readonly planReadsPerPolicy?: number;
}

type Who = 'ours' | 'noop' | 'floor' | 'peer';
const LABELS: Record<Who, string> = {
  ours: 'cdktf-google-iam',
  noop: 'no-op plugin provider',
  floor: 'bare terraform_data',
  peer: 'peer model',
};
const COLORS: Record<Who, string> = { ours: '#1a73e8', noop: '#9334e6', floor: '#188038', peer: '#d93025' };

interface Series {
  readonly label: string;
  readonly color: string;
  readonly dashed: boolean;
  readonly points: Array<[number, number]>;
}

const W = 920;
const H = 420;
const PANEL_W = 380;
const PANEL_H = 270;
const TOP = 60;
const LEFTS = [70, 500];

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const log10 = Math.log10;

function panel(left: number, title: string, series: Series[], yTicks: number[], yFormat: (v: number) => string, xTicks: number[]): string {
  const [x0, x1] = [log10(xTicks[0]), log10(xTicks[xTicks.length - 1])];
  const [y0, y1] = [log10(yTicks[0]), log10(yTicks[yTicks.length - 1])];
  const px = (x: number) => left + ((log10(x) - x0) / (x1 - x0)) * PANEL_W;
  const py = (y: number) =>
    TOP + PANEL_H - ((log10(Math.min(Math.max(y, yTicks[0]), yTicks[yTicks.length - 1])) - y0) / (y1 - y0)) * PANEL_H;
  const out: string[] = [];
  out.push(`<text x="${left + PANEL_W / 2}" y="${TOP - 14}" text-anchor="middle" font-weight="bold">${esc(title)}</text>`);
  out.push(`<rect x="${left}" y="${TOP}" width="${PANEL_W}" height="${PANEL_H}" fill="none" stroke="#888"/>`);
  for (const t of yTicks) {
    out.push(`<line x1="${left}" x2="${left + PANEL_W}" y1="${py(t).toFixed(1)}" y2="${py(t).toFixed(1)}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${left - 6}" y="${(py(t) + 4).toFixed(1)}" text-anchor="end">${esc(yFormat(t))}</text>`);
  }
  for (const t of xTicks) {
    out.push(`<line x1="${px(t).toFixed(1)}" x2="${px(t).toFixed(1)}" y1="${TOP}" y2="${TOP + PANEL_H}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${px(t).toFixed(1)}" y="${TOP + PANEL_H + 18}" text-anchor="middle">${t.toLocaleString('en-US')}</text>`);
  }
  out.push(`<text x="${left + PANEL_W / 2}" y="${TOP + PANEL_H + 38}" text-anchor="middle">grants (log scale)</text>`);
  for (const s of series) {
    const path = s.points.map(([x, y], i) => `${i ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    out.push(`<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2.2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    for (const [x, y] of s.points) {
      out.push(
        `<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3.5" fill="${s.color}"><title>${esc(`${s.label}: ${x} grants, ${yFormat(y)}`)}</title></circle>`,
      );
    }
  }
  return out.join('\n');
}

/** Ticks 1-2-5 per decade covering [min, max]. */
function ticks(min: number, max: number): number[] {
  const out: number[] = [];
  let decade = 10 ** Math.floor(log10(min));
  while (decade <= max * 10) {
    for (const m of [1, 2, 5]) {
      const v = m * decade;
      if (v >= min / 2.0001 && (out.length === 0 || out[out.length - 1] < max)) out.push(v);
    }
    decade *= 10;
  }
  while (out.length > 1 && out[1] <= min) out.shift();
  return out;
}

export function scaleSvg(measured: readonly ScalePoint[], caption: string): string {
  const points = measured.filter((p) => !p.busy);
  const grants = [...new Set(points.map((p) => p.grants))].sort((a, b) => a - b);
  const policies = [...new Set(points.map((p) => p.policies))].sort((a, b) => a - b);
  const series = (metric: (p: ScalePoint, who: Who) => number | undefined): Series[] =>
    (['ours', 'noop', 'floor', 'peer'] as const)
      .flatMap((who) =>
        policies.map((pol) => ({
          label: `${LABELS[who]}, ${pol} ${pol === 1 ? 'policy' : 'policies'}`,
          color: COLORS[who],
          dashed: pol !== 1,
          points: points
            .filter((p) => p.policies === pol && metric(p, who) !== undefined)
            .sort((a, b) => a.grants - b.grants)
            .map((p) => [p.grants, metric(p, who)!] as [number, number]),
        })),
      )
      .filter((s) => s.points.length > 0);
  const timeSeries = series((p, who) => {
    const v = { ours: p.oursMs, noop: p.noopMs, floor: p.floorMs, peer: p.peerMs }[who];
    return v === undefined ? undefined : v / 1000;
  });
  const callSeries = series((p, who) => (who === 'ours' ? p.oursCallsPerGrant : who === 'peer' ? p.peerCallsPerGrant : undefined));
  const allTimes = timeSeries.flatMap((s) => s.points.map(([, y]) => y));
  const allCalls = callSeries.flatMap((s) => s.points.map(([, y]) => y));
  const timeTicks = ticks(Math.min(...allTimes), Math.max(...allTimes));
  const callTicks = ticks(Math.min(...allCalls), Math.max(...allCalls));
  const fmtS = (v: number) => (v >= 1 ? `${v.toLocaleString('en-US')} s` : `${v} s`);
  const legend = timeSeries
    .map((s, i) => {
      const x = 70 + Math.floor(i / 2) * 270;
      const y = H - 34 + (i % 2) * 18;
      return (
        `<line x1="${x}" x2="${x + 28}" y1="${y}" y2="${y}" stroke="${s.color}" stroke-width="2.2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>` +
        `<text x="${x + 34}" y="${y + 4}">${esc(s.label)}</text>`
      );
    })
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H + 10}" viewBox="0 0 ${W} ${H + 10}" font-family="Helvetica, Arial, sans-serif" font-size="12">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${W / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${esc(caption)}</text>
${panel(LEFTS[0], 'terraform apply wall time (log scale)', timeSeries, timeTicks, fmtS, grants)}
${panel(LEFTS[1], 'IAM API calls per grant (log scale)', callSeries, callTicks, (v) => String(v), grants)}
${legend}
</svg>
`;
}
