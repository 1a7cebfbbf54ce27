/**
 * Scale curve: 10, 100 and 1,000 member grants spread over 1 and over 10
 * policies at a given API latency, `-parallelism=10`, one `terraform apply`
 * each (drift detection on, the default), with the peak RSS of the whole
 * `terraform apply` process tree; beside the peer model (virtual clock).
 */
import { GoogleApiEmulator } from '../lib/testing';
import { GrantsDeploy, type ApplyResult } from './deploy';
import { replayPeer } from './peer-model';
import type { ScalePoint } from './svg';

export interface ScaleOptions {
  readonly grants: readonly number[];
  readonly policies: readonly number[];
  readonly latencyMs: number;
  readonly parallelism: number;
  readonly rssSampleMs: number;
  readonly log: (line: string) => void;
}

export async function benchScale(options: ScaleOptions): Promise<ScalePoint[]> {
  const ours = await GoogleApiEmulator.start({ latencyMs: options.latencyMs });
  const peer = await GoogleApiEmulator.start({ latencyMs: 0 });
  const measure = async (grants: number, policies: number): Promise<ApplyResult> => {
    const deploy = await GrantsDeploy.create({ grants, policies, detectDrift: true }, ours);
    try {
      // Small stacks get a warm-up run; a 1,000-grant apply is measured once.
      if (grants <= 100) await deploy.apply(options.parallelism);
      return await deploy.apply(options.parallelism, options.rssSampleMs);
    } finally {
      deploy.dispose();
    }
  };
  const points: ScalePoint[] = [];
  try {
    for (const grants of options.grants) {
      for (const policies of options.policies) {
        if (policies > grants) continue;
        const run = await measure(grants, policies);
        const model = await replayPeer(
          peer,
          { grants, policies, parallelism: options.parallelism, latencyMs: options.latencyMs },
          'virtual',
        );
        const point: ScalePoint = {
          grants,
          policies,
          oursMs: run.ms,
          oursCallsPerGrant: run.calls / grants,
          oursPeakMiB: run.peakTreeRssMiB,
          peerMs: model.ms,
          peerCallsPerGrant: model.calls / grants,
        };
        options.log(`scale: ${JSON.stringify(point)}`);
        points.push(point);
      }
    }
  } finally {
    await ours.close();
    await peer.close();
  }
  return points;
}
