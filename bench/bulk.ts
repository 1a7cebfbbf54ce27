/**
 * Bulk grants at scale: 10,000 grants as ten `AuthorizationPolicyIamMembers`
 * of 1,000 on ten policies, through the real `terraform` and the provider
 * against the emulator at a given latency, alternating with ten bare
 * `terraform_data` (the floor: what Terraform costs for ten resources) and
 * ten holding the same entries (what Terraform costs for the data);
 * then a plan with nothing changed (reads per policy), and one entry removed
 * in Google: the plan names it (exit 2) and one apply restores it in one write.
 * The same 10,000 as member grants, once, for comparison (BENCH_BULK_MEMBERS=1:
 * it takes tens of minutes, Terraform's cost growing with the square of the
 * resources in one state).
 */
import { DataResource, type TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, AuthorizationPolicyIamMembers } from '../lib';
import type { GoogleApiEmulator } from '../lib/testing';
import { memberName, policyName, ROLE } from './deploy';
import { runProcess } from './processes';
import { median } from './stats';
import { BenchWorkspace, TF_ENV } from './workspace';

const FOREIGN = { bindings: [{ role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] }] };

export interface BulkOptions {
  readonly emulator: GoogleApiEmulator;
  readonly grants: number;
  readonly policies: number;
  readonly runs: number;
  readonly parallelism: number;
  readonly rssSampleMs: number;
  /** Print the plan of the drifted entry. */
  readonly showDriftPlan?: boolean;
  /** Also the same grants as member grants, once. */
  readonly members: boolean;
  readonly log: (line: string) => void;
}

export interface BulkResult {
  readonly grants: number;
  readonly policies: number;
  readonly runs: number;
  readonly oursMs: number;
  readonly floorMs: number;
  /** Ten terraform_data holding the same entries as their input: what Terraform costs for the data alone. */
  readonly dataFloorMs: number;
  readonly peakMiB: number;
  /** Peak RSS of terraform applying the ten terraform_data that hold the same entries: Terraform's share. */
  readonly dataFloorPeakMiB: number;
  readonly callsPerPolicy: number;
  readonly planReadsPerPolicy: number;
  readonly planMs: number;
  readonly driftPlanExit: number;
  readonly driftPlanNamesEntry: boolean;
  /** Lines of that plan output. */
  readonly driftPlanLines: number;
  readonly driftRepairWrites: number;
  /** The same grants as member grants: one apply, and a plan with nothing changed. */
  readonly asMembers?: { readonly applyMs: number; readonly planMs: number; readonly peakMiB: number };
}

const APPLY = (parallelism: number) => ['apply', '-auto-approve', '-input=false', '-no-color', `-parallelism=${parallelism}`];
const PLAN = (parallelism: number) => ['plan', '-input=false', '-no-color', '-detailed-exitcode', `-parallelism=${parallelism}`];

/** One stack, applied from scratch as often as needed against fresh policies. */
async function deployment(build: (stack: TerraformStack) => void) {
  const ws = await BenchWorkspace.synth(build);
  const run = (args: string[], env: NodeJS.ProcessEnv, sampleRssEveryMs?: number) =>
    runProcess('terraform', args, { cwd: ws.dir, env: { ...TF_ENV, ...env }, sampleRssEveryMs, acceptExitCodes: [0, 2] });
  return { ws, run };
}

export async function benchBulk(options: BulkOptions): Promise<BulkResult> {
  const { emulator, grants, policies, parallelism } = options;
  const perResource = grants / policies;
  const resetPolicies = () => {
    for (let p = 0; p < policies; p++) emulator.addResource(policyName(p), FOREIGN);
  };
  const bulk = await deployment((stack) => {
    for (let p = 0; p < policies; p++) {
      new AuthorizationPolicyIamMembers(stack, `Team${p}`, {
        name: policyName(p),
        grants: Array.from({ length: perResource }, (_, i) => ({ role: ROLE, member: memberName(p * perResource + i) })),
      });
    }
  });
  const floor = await deployment((stack) => {
    for (let p = 0; p < policies; p++) new DataResource(stack, `F${p}`, { input: { p } });
  });
  // Terraform's own cost of the same data: ten terraform_data, each holding its thousand entries.
  const data = await deployment((stack) => {
    for (let p = 0; p < policies; p++) {
      const input = Array.from({ length: perResource }, (_, i) => ({ role: ROLE, member: memberName(p * perResource + i), condition: [] }));
      new DataResource(stack, `D${p}`, { input });
    }
  });
  const env = emulator.env();
  try {
    const ours: number[] = [];
    const bare: number[] = [];
    const sameData: number[] = [];
    const sameDataPeaks: number[] = [];
    const peaks: number[] = [];
    const calls: number[] = [];
    for (let round = 0; round < options.runs; round++) {
      floor.ws.resetState();
      bare.push((await floor.run(APPLY(parallelism), {})).ms);
      data.ws.resetState();
      const dataRun = await data.run(APPLY(parallelism), {}, options.rssSampleMs);
      sameData.push(dataRun.ms);
      sameDataPeaks.push(dataRun.peakTreeRssMiB);
      bulk.ws.resetState();
      resetPolicies();
      emulator.resetStats();
      const run = await bulk.run(APPLY(parallelism), env, options.rssSampleMs);
      const stats = emulator.stats();
      ours.push(run.ms);
      peaks.push(run.peakTreeRssMiB);
      calls.push((stats.getIamPolicy + stats.setIamPolicy) / policies);
      options.log(
        `bulk ${grants}/${policies} round ${round + 1}: ours ${run.ms.toFixed(0)} ms, floor ${bare.at(-1)!.toFixed(0)} ms, same data ${sameData.at(-1)!.toFixed(0)} ms`,
      );
    }
    checkLanded(emulator, grants, policies);
    emulator.resetStats();
    const plan = await bulk.run(PLAN(parallelism), env);
    const planReadsPerPolicy = emulator.stats().getIamPolicy / policies;
    // One entry removed in Google: the plan names it; one apply restores it with one write.
    const gone = memberName(7);
    const policy = emulator.policy(policyName(0));
    emulator.addResource(policyName(0), {
      ...policy,
      bindings: (policy.bindings ?? []).map((b) => (b.role === ROLE ? { ...b, members: (b.members ?? []).filter((m) => m !== gone) } : b)),
    });
    const drift = await bulk.run(PLAN(parallelism), env);
    if (options.showDriftPlan) options.log(`the plan of one drifted entry:\n${drift.stdout}`);
    emulator.resetStats();
    await bulk.run(APPLY(parallelism), env);
    const repairWrites = emulator.stats().setIamPolicy;
    checkLanded(emulator, grants, policies);
    return {
      grants,
      policies,
      runs: options.runs,
      oursMs: median(ours),
      floorMs: median(bare),
      dataFloorMs: median(sameData),
      peakMiB: median(peaks),
      dataFloorPeakMiB: median(sameDataPeaks),
      callsPerPolicy: median(calls),
      planReadsPerPolicy,
      planMs: plan.ms,
      driftPlanExit: drift.code,
      driftPlanNamesEntry: drift.stdout.includes(`- "${ROLE}: ${gone}"`),
      driftPlanLines: drift.stdout.trimEnd().split('\n').length,
      driftRepairWrites: repairWrites,
      ...(options.members ? { asMembers: await asMemberGrants(options, resetPolicies) } : {}),
    };
  } finally {
    bulk.ws.dispose();
    floor.ws.dispose();
    data.ws.dispose();
  }
}

/** The same grants as one `AuthorizationPolicyIamMember` each: one apply and one plan. */
async function asMemberGrants(options: BulkOptions, resetPolicies: () => void) {
  const { emulator, grants, policies, parallelism } = options;
  const members = await deployment((stack) => {
    for (let i = 0; i < grants; i++) {
      new AuthorizationPolicyIamMember(stack, `M${i}`, { name: policyName(i % policies), role: ROLE, member: memberName(i) });
    }
  });
  try {
    resetPolicies();
    const apply = await members.run(APPLY(parallelism), emulator.env(), options.rssSampleMs);
    options.log(`members ${grants}/${policies}: apply ${apply.ms.toFixed(0)} ms`);
    checkLanded(emulator, grants, policies);
    const plan = await members.run(PLAN(parallelism), emulator.env());
    return { applyMs: apply.ms, planMs: plan.ms, peakMiB: apply.peakTreeRssMiB };
  } finally {
    members.ws.dispose();
  }
}

function checkLanded(emulator: GoogleApiEmulator, grants: number, policies: number): void {
  let granted = 0;
  for (let p = 0; p < policies; p++) {
    granted += emulator.policy(policyName(p)).bindings?.find((b) => b.role === ROLE && !b.condition)?.members?.length ?? 0;
  }
  if (granted !== grants) throw new Error(`bulk: ${granted} of ${grants} grants landed`);
}
