/**
 * The googleiam provider at scale, under the real terraform against the
 * emulator with 100 ms per API call, default -parallelism: N member grants on
 * one policy, synthesized as a user's stack is, applied (wall time, the
 * provider's peak RSS and terraform's plus the provider's, CPU, IAM calls per
 * grant), then a plan of the N unchanged grants (reads per policy). Needs
 * `npm run build`.
 *
 *   npx ts-node --transpile-only bench/provider-grants.ts [N ...]   (default 100 1000)
 */
import { GoogleApiEmulator } from '../lib/testing';
import { GrantsDeploy } from './deploy';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 100);
const PARALLELISM = 10;

async function main(): Promise<void> {
  const counts = process.argv.slice(2).map(Number);
  const emulator = await GoogleApiEmulator.start({ latencyMs: LATENCY_MS });
  try {
    for (const n of counts.length ? counts : [100, 1000]) {
      const deploy = await GrantsDeploy.create({ grants: n, policies: 1 }, emulator);
      try {
        const apply = await deploy.apply(PARALLELISM, 50);
        const plan = await deploy.plan(PARALLELISM);
        process.stdout.write(
          `${n} grants: apply ${(apply.ms / 1000).toFixed(1)} s, provider peak RSS ${apply.peakProviderRssMiB.toFixed(0)} MiB ` +
            `(terraform + provider ${apply.peakTreeRssMiB.toFixed(0)} MiB), CPU provider ${apply.providerCpuS.toFixed(1)} s / terraform ${apply.terraformCpuS.toFixed(1)} s, ` +
            `${apply.reads} reads + ${apply.writes} writes = ${(apply.calls / n).toFixed(3)} IAM calls per grant; ` +
            `plan of ${n} unchanged: ${(plan.ms / 1000).toFixed(1)} s, ${plan.reads} read(s) for 1 policy, ${plan.writes} writes\n`,
        );
      } finally {
        deploy.dispose();
      }
    }
  } finally {
    await emulator.close();
  }
}

void main();
