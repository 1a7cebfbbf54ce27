/**
 * Deploy benchmarks: member grants through the real `terraform apply
 * -parallelism=N` against the emulator (at a given latency per API call),
 * and the floor: as many `terraform_data` whose local-exec only starts
 * `node -e 0`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DataResource, type TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, GoogleIamGrants } from '../lib';
import { GoogleApiEmulator } from '../lib/testing';
import { runProcess } from './processes';
import { BenchWorkspace, externalProviderEnv, TF_ENV } from './workspace';

export const ROLE = 'roles/networksecurity.authorizationPolicyViewer';
const FOREIGN = { bindings: [{ role: 'roles/networksecurity.authorizationPolicyAdmin', members: ['user:owner@example.com'] }] };

export const policyName = (p: number) => `projects/bench-project/locations/global/authorizationPolicies/ap-${p}`;
export const memberName = (i: number) => `user:member-${i}@example.com`;

export interface DeploySpec {
  readonly grants: number;
  /** Grant i goes to policy i mod policies. */
  readonly policies: number;
  readonly detectDrift: boolean;
}

/** When Terraform started the first resource, and finished the last one (ms since spawn). */
export interface Phases {
  readonly firstCreateMs: number;
  readonly lastCreatedMs: number;
}

function phaseTracker(): { onLine: (line: string, ms: number) => void; phases: () => Phases } {
  let first = NaN;
  let last = NaN;
  return {
    onLine: (line, ms) => {
      if (Number.isNaN(first) && /: Creating\.\.\.$/.test(line)) first = ms;
      if (/: Creation complete after/.test(line)) last = ms;
    },
    phases: () => ({ firstCreateMs: first, lastCreatedMs: last }),
  };
}

export interface ApplyResult extends Phases {
  readonly ms: number;
  /** CPU seconds of the terraform process itself (sampled with the RSS; 0 when not sampled). */
  readonly terraformCpuS: number;
  readonly peakTreeRssMiB: number;
  /** getIamPolicy + setIamPolicy seen by the emulator during the whole `terraform apply` (drift reads included). */
  readonly calls: number;
  readonly reads: number;
  readonly writes: number;
  readonly conflicts: number;
}

const APPLY_ARGS = (parallelism: number) => ['apply', '-auto-approve', '-input=false', '-no-color', `-parallelism=${parallelism}`];

/** A synthesized and initialised stack of member grants, applied from scratch as often as needed. */
export class GrantsDeploy {
  public static async create(spec: DeploySpec, emulator: GoogleApiEmulator): Promise<GrantsDeploy> {
    const ws = await BenchWorkspace.synth((s: TerraformStack) => {
      for (let i = 0; i < spec.grants; i++) {
        new AuthorizationPolicyIamMember(s, `M${i}`, { name: policyName(i % spec.policies), role: ROLE, member: memberName(i) });
      }
      GoogleIamGrants.of(s).detectDrift = spec.detectDrift;
    });
    return new GrantsDeploy(spec, emulator, ws);
  }

  /** One runner state folder for all runs, as a deployer's machine has: the warm-up run writes the code cache. */
  private readonly stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-state-'));

  private constructor(
    public readonly spec: DeploySpec,
    private readonly emulator: GoogleApiEmulator,
    private readonly ws: BenchWorkspace,
  ) {}

  /** Resets the policies and the state, then `terraform apply`; checks that every grant landed. */
  public async apply(parallelism: number, sampleRssEveryMs?: number): Promise<ApplyResult> {
    this.ws.resetState();
    for (let p = 0; p < this.spec.policies; p++) this.emulator.addResource(policyName(p), FOREIGN);
    this.emulator.resetStats();
    const tracker = phaseTracker();
    const run = await runProcess('terraform', APPLY_ARGS(parallelism), {
      cwd: this.ws.dir,
      env: { ...TF_ENV, ...externalProviderEnv(), ...this.emulator.env(), CDKTF_GOOGLE_IAM_STATE_DIR: this.stateDir },
      sampleRssEveryMs,
      onLine: tracker.onLine,
    });
    const stats = this.emulator.stats();
    let granted = 0;
    for (let p = 0; p < this.spec.policies; p++) {
      granted += this.emulator.policy(policyName(p)).bindings?.find((b) => b.role === ROLE && !b.condition)?.members?.length ?? 0;
    }
    if (granted !== this.spec.grants) throw new Error(`deploy: ${granted} of ${this.spec.grants} grants landed`);
    return {
      ...tracker.phases(),
      ms: run.ms,
      peakTreeRssMiB: run.peakTreeRssMiB,
      terraformCpuS: run.ownCpuS,
      calls: stats.getIamPolicy + stats.setIamPolicy,
      reads: stats.getIamPolicy,
      writes: stats.setIamPolicy,
      conflicts: stats.conflicts,
    };
  }

  public dispose(): void {
    this.ws.dispose();
    fs.rmSync(this.stateDir, { recursive: true, force: true });
  }
}

/** `count` terraform_data whose create-time local-exec starts `node -e 0`: what Terraform and Node cost alone. */
export class FloorDeploy {
  public static async create(count: number): Promise<FloorDeploy> {
    const ws = await BenchWorkspace.synth((s: TerraformStack) => {
      for (let i = 0; i < count; i++) {
        new DataResource(s, `F${i}`, {
          input: { i },
          provisioners: [{ type: 'local-exec', interpreter: ['node', '-e', '0'], command: 'floor' }],
        });
      }
    });
    return new FloorDeploy(ws);
  }

  private constructor(private readonly ws: BenchWorkspace) {}

  public async apply(
    parallelism: number,
    sampleRssEveryMs?: number,
  ): Promise<Phases & { ms: number; peakTreeRssMiB: number; terraformCpuS: number }> {
    this.ws.resetState();
    const tracker = phaseTracker();
    const run = await runProcess('terraform', APPLY_ARGS(parallelism), {
      cwd: this.ws.dir,
      env: { ...TF_ENV, ...externalProviderEnv() },
      sampleRssEveryMs,
      onLine: tracker.onLine,
    });
    return { ...tracker.phases(), ms: run.ms, peakTreeRssMiB: run.peakTreeRssMiB, terraformCpuS: run.ownCpuS };
  }

  public dispose(): void {
    this.ws.dispose();
  }
}
