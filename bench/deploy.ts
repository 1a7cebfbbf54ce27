/**
 * Deploy benchmarks: member grants through the real `terraform apply
 * -parallelism=N` and the library's provider against the emulator (at a given
 * latency per API call), and the floor: as many `terraform_data`, which need
 * no provider at all.
 */
import * as fs from 'fs';
import * as path from 'path';
import { DataResource, type TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember } from '../lib';
import type { GoogleApiEmulator } from '../lib/testing';
import { runProcess } from './processes';
import { BenchWorkspace, TF_ENV } from './workspace';

export const ROLE = 'roles/networksecurity.viewer';
const FOREIGN = { bindings: [{ role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] }] };

export const policyName = (p: number) => `projects/bench-project/locations/global/authorizationPolicies/ap-${p}`;
export const memberName = (i: number) => `user:member-${i}@example.com`;

export interface DeploySpec {
  readonly grants: number;
  /** Grant i goes to policy i mod policies. */
  readonly policies: number;
}

export interface ApplyResult {
  readonly ms: number;
  /** Peak of the summed RSS of `terraform apply` and its children (the provider), in MiB; 0 when not sampled. */
  readonly peakTreeRssMiB: number;
  /** Peak RSS of the provider processes alone, and the CPU seconds of those and of terraform itself; 0 when not sampled. */
  readonly peakProviderRssMiB: number;
  readonly providerCpuS: number;
  readonly terraformCpuS: number;
  /** getIamPolicy + setIamPolicy seen by the emulator during the whole command. */
  readonly calls: number;
  readonly reads: number;
  readonly writes: number;
  readonly conflicts: number;
  /** The size of terraform.tfstate after the command. */
  readonly stateBytes: number;
}

/** What a floor's apply costs: its wall time, peak RSS, terraform's CPU, and the state it leaves. */
export interface FloorRun {
  readonly ms: number;
  readonly peakTreeRssMiB: number;
  readonly terraformCpuS: number;
  /** The size of terraform.tfstate after the apply. */
  readonly stateBytes: number;
}

/** The size of `dir`'s terraform.tfstate. */
export const stateBytes = (dir: string) => fs.statSync(path.join(dir, 'terraform.tfstate')).size;

export const APPLY_ARGS = (parallelism: number) => ['apply', '-auto-approve', '-input=false', '-no-color', `-parallelism=${parallelism}`];

/** A synthesized and initialised stack of member grants, applied from scratch as often as needed. */
export class GrantsDeploy {
  public static async create(spec: DeploySpec, emulator: GoogleApiEmulator): Promise<GrantsDeploy> {
    const ws = await BenchWorkspace.synth((s: TerraformStack) => {
      for (let i = 0; i < spec.grants; i++) {
        new AuthorizationPolicyIamMember(s, `M${i}`, { name: policyName(i % spec.policies), role: ROLE, member: memberName(i) });
      }
    });
    return new GrantsDeploy(spec, emulator, ws);
  }

  private constructor(
    public readonly spec: DeploySpec,
    private readonly emulator: GoogleApiEmulator,
    private readonly ws: BenchWorkspace,
  ) {}

  /** Resets the policies and the state, then `terraform apply`; checks that every grant landed. */
  public async apply(parallelism: number, sampleRssEveryMs?: number): Promise<ApplyResult> {
    this.ws.resetState();
    for (let p = 0; p < this.spec.policies; p++) this.emulator.addResource(policyName(p), FOREIGN);
    const result = await this.run(APPLY_ARGS(parallelism), sampleRssEveryMs);
    let granted = 0;
    for (let p = 0; p < this.spec.policies; p++) {
      granted += this.emulator.policy(policyName(p)).bindings?.find((b) => b.role === ROLE && !b.condition)?.members?.length ?? 0;
    }
    if (granted !== this.spec.grants) throw new Error(`deploy: ${granted} of ${this.spec.grants} grants landed`);
    return result;
  }

  /** `terraform plan -detailed-exitcode` of the applied stack: must find no change (exit 0). */
  public plan(parallelism: number): Promise<ApplyResult> {
    return this.run(['plan', '-input=false', '-no-color', '-detailed-exitcode', `-parallelism=${parallelism}`]);
  }

  private async run(args: string[], sampleRssEveryMs?: number): Promise<ApplyResult> {
    this.emulator.resetStats();
    const run = await runProcess('terraform', args, {
      cwd: this.ws.dir,
      env: { ...TF_ENV, ...this.emulator.env() },
      sampleRssEveryMs,
      part: 'terraform-provider-googleiam',
    });
    const stats = this.emulator.stats();
    return {
      ms: run.ms,
      peakTreeRssMiB: run.peakTreeRssMiB,
      peakProviderRssMiB: run.peakPartRssMiB,
      providerCpuS: run.partCpuS,
      terraformCpuS: run.ownCpuS,
      calls: stats.getIamPolicy + stats.setIamPolicy,
      reads: stats.getIamPolicy,
      writes: stats.setIamPolicy,
      conflicts: stats.conflicts,
      stateBytes: stateBytes(this.ws.dir),
    };
  }

  public dispose(): void {
    this.ws.dispose();
  }
}

/** `count` bare `terraform_data` (no provider, no provisioner): what Terraform costs alone for as many resources. */
export class FloorDeploy {
  public static async create(count: number): Promise<FloorDeploy> {
    const ws = await BenchWorkspace.synth((s: TerraformStack) => {
      for (let i = 0; i < count; i++) new DataResource(s, `F${i}`, { input: { i } });
    });
    return new FloorDeploy(ws);
  }

  private constructor(private readonly ws: BenchWorkspace) {}

  public async apply(parallelism: number, sampleRssEveryMs?: number): Promise<FloorRun> {
    this.ws.resetState();
    const run = await runProcess('terraform', APPLY_ARGS(parallelism), { cwd: this.ws.dir, env: TF_ENV, sampleRssEveryMs });
    return { ms: run.ms, peakTreeRssMiB: run.peakTreeRssMiB, terraformCpuS: run.ownCpuS, stateBytes: stateBytes(this.ws.dir) };
  }

  public dispose(): void {
    this.ws.dispose();
  }
}
