/**
 * Scale: member grants spread over one and over ten policies at a given API
 * latency, `-parallelism=10`, each `terraform apply` alternating with the
 * floor (as many bare `terraform_data`, in the same round) and the median of
 * `runs` rounds taken (the floors: as many bare `terraform_data`, and as
 * many resources of the bench's no-op plugin provider), with the peak RSS of the whole `terraform apply`
 * process tree (terraform and the provider); then a `terraform plan` of the
 * applied stack (its reads per policy); beside the peer model (virtual
 * clock). A point may run with the CPU deliberately busy (busyCpu), as on a
 * shared CI runner.
 */
import { GoogleApiEmulator } from '../lib/testing';
import { MAX_PRINCIPALS } from '../lib/iam/limits';
import { FloorDeploy, GrantsDeploy } from './deploy';
import { NoopDeploy } from './noop-deploy';
import { replayPeer } from './peer-model';
import { busyCpu } from './processes';
import { median } from './stats';
import type { ScalePoint } from './svg';

export interface ScaleSpec {
  readonly grants: number;
  readonly policies: number;
  /** Whether the CPU is kept busy meanwhile (one spinning process per core). */
  readonly busy: boolean;
}

export interface ScaleOptions {
  readonly points: readonly ScaleSpec[];
  /** Rounds of ours and the floor, alternating; each figure is the median. */
  readonly runs: number;
  readonly latencyMs: number;
  readonly parallelism: number;
  readonly rssSampleMs: number;
  readonly log: (line: string) => void;
}

export async function benchScale(options: ScaleOptions): Promise<ScalePoint[]> {
  const ours = await GoogleApiEmulator.start({ latencyMs: options.latencyMs });
  const peer = await GoogleApiEmulator.start({ latencyMs: 0 });
  const points: ScalePoint[] = [];
  try {
    for (const { grants, policies, busy } of options.points) {
      // Google allows 1,500 principals in one policy: more grants than that on one policy is not a stack anyone can deploy.
      if (policies > grants || grants / policies > MAX_PRINCIPALS)
        throw new Error(`scale: ${grants} grants cannot go on ${policies} policies`);
      const deploy = await GrantsDeploy.create({ grants, policies }, ours);
      const floor = await FloorDeploy.create(grants);
      const noop = await NoopDeploy.create(grants, policies);
      const runs: {
        ms: number;
        calls: number;
        peakMiB: number;
        stateBytes: number;
        floorMs: number;
        floorPeakMiB: number;
        floorStateBytes: number;
        noopMs: number;
        noopPeakMiB: number;
        noopStateBytes: number;
      }[] = [];
      try {
        const stopBusy = busy ? busyCpu() : undefined;
        try {
          for (let round = 0; round < options.runs; round++) {
            const bare = await floor.apply(options.parallelism, options.rssSampleMs);
            const plugin = await noop.apply(options.parallelism, options.rssSampleMs);
            const run = await deploy.apply(options.parallelism, options.rssSampleMs);
            runs.push({
              ms: run.ms,
              calls: run.calls,
              peakMiB: run.peakTreeRssMiB,
              stateBytes: run.stateBytes,
              floorMs: bare.ms,
              floorPeakMiB: bare.peakTreeRssMiB,
              floorStateBytes: bare.stateBytes,
              noopMs: plugin.ms,
              noopPeakMiB: plugin.peakTreeRssMiB,
              noopStateBytes: plugin.stateBytes,
            });
            options.log(`scale ${grants}/${policies}${busy ? ' busy' : ''} round ${round + 1}: ${JSON.stringify(runs[round])}`);
          }
        } finally {
          stopBusy?.();
        }
        const plan = busy ? undefined : await deploy.plan(options.parallelism);
        const model = await replayPeer(
          peer,
          { grants, policies, parallelism: options.parallelism, latencyMs: options.latencyMs },
          'virtual',
        );
        const point: ScalePoint = {
          grants,
          policies,
          busy,
          runs: runs.length,
          oursMs: median(runs.map((r) => r.ms)),
          floorMs: median(runs.map((r) => r.floorMs)),
          oursCallsPerGrant: median(runs.map((r) => r.calls)) / grants,
          oursPeakMiB: median(runs.map((r) => r.peakMiB)),
          floorPeakMiB: median(runs.map((r) => r.floorPeakMiB)),
          noopMs: median(runs.map((r) => r.noopMs)),
          noopPeakMiB: median(runs.map((r) => r.noopPeakMiB)),
          stateBytesPerGrant: {
            ours: median(runs.map((r) => r.stateBytes)) / grants,
            noop: median(runs.map((r) => r.noopStateBytes)) / grants,
            floor: median(runs.map((r) => r.floorStateBytes)) / grants,
          },
          peerMs: model.ms,
          peerCallsPerGrant: model.calls / grants,
          ...(plan ? { planReadsPerPolicy: plan.reads / policies } : {}),
        };
        options.log(`scale: ${JSON.stringify(point)}`);
        points.push(point);
      } finally {
        deploy.dispose();
        floor.dispose();
        noop.dispose();
      }
    }
  } finally {
    await ours.close();
    await peer.close();
  }
  return points;
}
