/**
 * Scale curve: 10 to 10,000 member grants spread over 1 and over 10 policies
 * at a given API latency, `-parallelism=10`, one `terraform apply` each, with
 * the peak RSS of the whole `terraform apply` process tree (terraform and the
 * provider), then a `terraform plan` of the applied stack (its reads per
 * policy); beside the peer model (virtual clock).
 */
import { GoogleApiEmulator } from '../lib/testing';
import { MAX_PRINCIPALS } from '../lib/iam/limits';
import { GrantsDeploy } from './deploy';
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
  const points: ScalePoint[] = [];
  try {
    for (const grants of options.grants) {
      for (const policies of options.policies) {
        // Google allows 1,500 principals in one policy: more grants than that on one policy is not a stack anyone can deploy.
        if (policies > grants || grants / policies > MAX_PRINCIPALS) continue;
        const deploy = await GrantsDeploy.create({ grants, policies }, ours);
        try {
          // Small stacks get a warm-up run; larger ones are measured once.
          if (grants <= 100) await deploy.apply(options.parallelism);
          const run = await deploy.apply(options.parallelism, options.rssSampleMs);
          const plan = await deploy.plan(options.parallelism);
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
            planReadsPerPolicy: plan.reads / policies,
          };
          options.log(`scale: ${JSON.stringify(point)}`);
          points.push(point);
        } finally {
          deploy.dispose();
        }
      }
    }
  } finally {
    await ours.close();
    await peer.close();
  }
  return points;
}
