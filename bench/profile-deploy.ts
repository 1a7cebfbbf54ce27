/**
 * Where a deploy's time goes: `ts-node --transpile-only bench/profile-deploy.ts [GRANTS]`.
 * Applies the floor and the grants (drift detection off, 100 ms per call,
 * -parallelism=10), and reports Terraform's own CPU (from /proc), the CPU of
 * every `node` Terraform starts (a module preloaded through NODE_OPTIONS
 * logs each process's getrusage at exit; a wrapper process would become the
 * runners' parent and so split one run into many), and the phases of the
 * apply. Linux only.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleApiEmulator } from '../lib/testing';
import { FloorDeploy, GrantsDeploy } from './deploy';
import { median } from './stats';

async function main(): Promise<void> {
  const grants = Number(process.argv[2] ?? 100);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-profile-'));
  const log = path.join(dir, 'node-cpu.txt');
  const logger = path.join(dir, 'log-cpu.js');
  fs.writeFileSync(
    logger,
    `process.on('exit', () => { const u = process.resourceUsage(); require('fs').appendFileSync(${JSON.stringify(log)}, (u.userCPUTime / 1e6) + ' ' + (u.systemCPUTime / 1e6) + '\\n'); });\n`,
  );
  const emulator = await GoogleApiEmulator.start({ latencyMs: 100 });
  const subjects = {
    floor: await FloorDeploy.create(grants),
    grants: await GrantsDeploy.create({ grants, policies: 1, detectDrift: false }, emulator),
  };
  try {
    for (const subject of Object.values(subjects)) await subject.apply(10); // warm-up, not logged
    process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require=${logger}`.trim();
    for (const [name, subject] of Object.entries(subjects)) {
      fs.rmSync(log, { force: true });
      const run = await subject.apply(10, 50);
      const cpu = fs
        .readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' ').map(Number))
        .map(([u, s]) => (u + s) * 1000);
      process.stdout.write(
        `${name}: wall ${(run.ms / 1000).toFixed(1)} s (before the first create ${(run.firstCreateMs / 1000).toFixed(1)} s, creating ${((run.lastCreatedMs - run.firstCreateMs) / 1000).toFixed(1)} s); ` +
          `Terraform's own CPU ${run.terraformCpuS.toFixed(2)} s; ${cpu.length} node processes, ${(cpu.reduce((a, b) => a + b, 0) / 1000).toFixed(2)} s CPU, median ${median(cpu).toFixed(0)} ms each` +
          ('calls' in run ? `; ${(run.calls / grants).toFixed(2)} IAM calls per grant (${run.reads} reads, ${run.writes} writes)` : '') +
          '\n',
      );
    }
  } finally {
    for (const subject of Object.values(subjects)) subject.dispose();
    await emulator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
