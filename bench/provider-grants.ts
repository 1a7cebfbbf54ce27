/**
 * The googleiam provider at scale, under the real terraform against the
 * emulator with 100 ms per API call, default -parallelism: N member grants on
 * one policy applied (wall time, the provider's peak RSS and terraform's plus
 * the provider's, IAM calls per grant), then a plan of the N unchanged grants
 * (reads per policy). Needs `npm run bundle:provider`.
 *
 *   npx ts-node --transpile-only bench/provider-grants.ts [N ...]   (default 100 1000)
 */
import * as fs from 'fs';
import { GoogleApiEmulator } from '../lib/testing';
import { GoogleIamWorkspace } from '../test/support/googleiam-workspace';

const ROLE = 'roles/networksecurity.authorizationPolicyViewer';
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 100);

interface Sampled {
  readonly ms: number;
  readonly code: number | null;
  readonly providerPeakMiB: number;
  readonly treePeakMiB: number;
  /** CPU seconds of the provider process(es) and of terraform itself, last sampled. */
  readonly providerCpuS: number;
  readonly terraformCpuS: number;
}

async function measure(workspace: GoogleIamWorkspace, args: string[]): Promise<Sampled> {
  const start = Date.now();
  const child = await workspace.start(args);
  let providerPeak = 0;
  let treePeak = 0;
  const cpu = new Map<number, number>();
  let terraformCpu = 0;
  const sampler = setInterval(() => {
    const tree = descendants(child.pid!);
    const rss = tree.map((pid) => ({ pid, rss: rssBytes(pid), provider: isProvider(pid) }));
    treePeak = Math.max(
      treePeak,
      rss.reduce((sum, p) => sum + p.rss, 0),
    );
    providerPeak = Math.max(
      providerPeak,
      rss.filter((p) => p.provider).reduce((sum, p) => sum + p.rss, 0),
    );
    for (const p of rss.filter((q) => q.provider)) cpu.set(p.pid, Math.max(cpu.get(p.pid) ?? 0, cpuSeconds(p.pid)));
    terraformCpu = Math.max(terraformCpu, cpuSeconds(child.pid!));
  }, 50);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  if (code !== 0 && code !== 2) throw new Error(`terraform ${args.join(' ')} exited with ${code}:\n${output.slice(-3000)}`);
  return {
    ms: Date.now() - start,
    code,
    providerPeakMiB: providerPeak / 2 ** 20,
    treePeakMiB: treePeak / 2 ** 20,
    providerCpuS: [...cpu.values()].reduce((a, b) => a + b, 0),
    terraformCpuS: terraformCpu,
  };
}

async function main(): Promise<void> {
  const counts = process.argv.slice(2).map(Number);
  const emulator = await GoogleApiEmulator.start({ latencyMs: LATENCY_MS });
  const rows: string[] = [];
  try {
    for (const n of counts.length ? counts : [100, 1000]) {
      const name = `projects/p-123456/locations/global/authorizationPolicies/bench-${n}`;
      emulator.addResource(name, { bindings: [] });
      const workspace = GoogleIamWorkspace.create(emulator);
      try {
        workspace.configure({
          resource: {
            googleiam_authorization_policy_iam_member: Object.fromEntries(
              Array.from({ length: n }, (_, i) => [`m${i}`, { name, role: ROLE, member: `user:u${i}@example.com` }]),
            ),
          },
        });
        await workspace.terraform(['version']); // init
        emulator.resetStats();
        const apply = await measure(workspace, ['apply', '-auto-approve', '-input=false']);
        const applied = emulator.stats();
        emulator.resetStats();
        const plan = await measure(workspace, ['plan', '-input=false', '-detailed-exitcode']);
        const planned = emulator.stats();
        rows.push(
          `${n} grants: apply ${(apply.ms / 1000).toFixed(1)} s, provider peak RSS ${apply.providerPeakMiB.toFixed(0)} MiB ` +
            `(terraform + provider ${apply.treePeakMiB.toFixed(0)} MiB), CPU provider ${apply.providerCpuS.toFixed(1)} s / terraform ${apply.terraformCpuS.toFixed(1)} s, ${applied.getIamPolicy} reads + ${applied.setIamPolicy} writes = ` +
            `${((applied.getIamPolicy + applied.setIamPolicy) / n).toFixed(3)} IAM calls per grant; ` +
            `plan of ${n} unchanged: ${(plan.ms / 1000).toFixed(1)} s, exit ${plan.code}, ${planned.getIamPolicy} read(s) for 1 policy, ${planned.setIamPolicy} writes`,
        );
        process.stdout.write(`${rows.at(-1)}\n`);
      } finally {
        workspace.remove();
      }
    }
  } finally {
    await emulator.close();
  }
}

function descendants(pid: number): number[] {
  const all = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  const parent = new Map<number, number>();
  for (const p of all) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      parent.set(Number(p), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [child, ppid] of parent) if (ppid === out[i]) out.push(child);
  return out;
}

function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function isProvider(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('terraform-provider-googleiam');
  } catch {
    return false;
  }
}

void main();
