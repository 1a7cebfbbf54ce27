/**
 * `npm run bench`: every figure is a ratio of medians measured side by side
 * in the same run (alternating subject and baseline), because these machines
 * are noisy. Prints one Markdown table.
 */
import * as os from 'os';
import * as path from 'path';
import { benchDeploy } from './deploy';
import { runWorker } from './processes';
import { benchRunnerStart } from './runner-start';
import { compare, median, printTable, ratio, type Row } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
// A synth run takes well under a second and its medians are the noisiest: more of them.
const SYNTH_RUNS = RUNS + 4;
const DEPLOY_RUNS = Math.max(5, Math.ceil(RUNS / 2));
const LIB = path.join(__dirname, '..', 'lib', 'index.js');
const WORKERS = path.join(__dirname, 'workers');

const ms = (values: readonly number[]) => `${median(values).toFixed(0)} ms`;
const x = (value: number) => `${value.toFixed(2)}×`;

async function requireCost(): Promise<Row> {
  const time = (module: string) => () => runWorker<{ ms: number }>(path.join(WORKERS, 'require.js'), [module]).then((r) => r.ms);
  const c = await compare(RUNS, time(LIB), time('cdktf'));
  return { benchmark: "cold require() vs require('cdktf')", measured: ms(c.subject), baseline: ms(c.baseline), ratio: x(ratio(c)), goal: '≤ 1.25×', met: ratio(c) <= 1.25 };
}

async function synthCost(count: number): Promise<Row[]> {
  const rss: Record<'grants' | 'native', number[]> = { grants: [], native: [] };
  const synth = (kind: 'grants' | 'native') => () =>
    runWorker<{ ms: number; maxRssMiB: number }>(path.join(WORKERS, 'synth.js'), [kind, String(count), LIB]).then((r) => {
      rss[kind].push(r.maxRssMiB);
      return r.ms;
    });
  const c = await compare(SYNTH_RUNS, synth('grants'), synth('native'));
  const memory = median(rss.grants) / median(rss.native);
  return [
    { benchmark: `synth ${count} AuthorizationPolicyIamMember vs ${count} native NetworkSecurityAddressGroupIamMember`, measured: ms(c.subject), baseline: ms(c.baseline), ratio: x(ratio(c)), goal: '≤ 1.5×', met: ratio(c) <= 1.5 },
    { benchmark: 'synth peak memory (max RSS), same stacks', measured: `${median(rss.grants).toFixed(0)} MiB`, baseline: `${median(rss.native).toFixed(0)} MiB`, ratio: x(memory), goal: 'reported', met: true },
  ];
}

async function deployCost(): Promise<Row[]> {
  const grants = 100;
  const d = await benchDeploy(grants, DEPLOY_RUNS, 10);
  const wall = median(d.grantMs) / median(d.floorMs);
  return [
    { benchmark: `deploy ${grants} member grants, one policy, -parallelism=10: IAM calls per grant`, measured: `${d.callsPerGrant.toFixed(2)} calls`, baseline: '≈ 5 (terraform-provider-google)', ratio: '-', goal: '≤ 1.0', met: d.callsPerGrant <= 1 && d.allPresent },
    { benchmark: 'deploy: etag conflicts seen by the server (all runs)', measured: String(d.conflicts), baseline: '-', ratio: '-', goal: 'reported', met: true },
    { benchmark: `deploy wall time vs ${grants} terraform_data running node -e 0`, measured: ms(d.grantMs), baseline: ms(d.floorMs), ratio: x(wall), goal: '≤ 1.5×', met: wall <= 1.5 },
  ];
}

async function runnerCost(): Promise<Row[]> {
  const t = await benchRunnerStart(RUNS + 3);
  const vsNode = (samples: number[]) => median(samples) / median(t.node);
  const floor = (benchmark: string, samples: number[]): Row =>
    ({ benchmark, measured: ms(samples), baseline: ms(t.node), ratio: x(vsNode(samples)), goal: 'reported', met: true });
  return [
    { benchmark: 'runner: one grant in a fresh process vs node -e 0', measured: ms(t.runner), baseline: ms(t.node), ratio: x(vsNode(t.runner)), goal: '≤ 1.5×', met: vsNode(t.runner) <= 1.5 },
    floor('floor: the same GET + SET alone through google-auth-library (no queue, lock or code cache)', t.googleAuth),
    floor('floor: the same GET + SET alone through bare node:http', t.nodeHttp),
  ];
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const step = async <T extends Row | Row[]>(title: string, run: () => Promise<T>) => {
    process.stderr.write(`bench: ${title}…\n`);
    const result = await run();
    rows.push(...(Array.isArray(result) ? result : [result]));
  };
  await step('cold require', requireCost);
  await step('synth', () => synthCost(1000));
  await step('deploy', deployCost);
  await step('runner start', runnerCost);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(`Machine: ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, ${os.platform()}; ${new Date().toISOString().slice(0, 10)}; medians of ${RUNS} alternating runs (synth: ${SYNTH_RUNS}, deploy: ${DEPLOY_RUNS}, runner: ${RUNS + 3})\n\n`);
  process.stdout.write(`${printTable(rows)}\n`);
  if (rows.some((r) => !r.met)) process.exitCode = 1;
}

main().catch((error: Error) => {
  process.stderr.write(`bench failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
