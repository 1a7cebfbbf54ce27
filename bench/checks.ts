/**
 * What the IAM security checks cost (docs/checks.md): a synth of 10,000
 * grants with the GoogleIamChecks aspect and its three reports against the
 * same synth without it (worker processes, alternating); and `terraform plan`
 * of 1,000 new grants with the provider's checks (`iam_checks`, default
 * `warn`) against the same plan with `iam_checks = "off"`.
 */
import * as path from 'path';
import { AuthorizationPolicyIamMember, GoogleIamProvider } from '../lib';
import { runWorker, timeProcess } from './processes';
import { compare, median, type Row } from './stats';
import { BenchWorkspace, TF_ENV } from './workspace';

const WORKERS = path.join(__dirname, 'workers');
const PER_POLICY = 1000;

/** A stack of `n` member grants (one policy per 1,000), its provider block's iam_checks as given. */
function grantsStack(n: number, iamChecks?: 'off') {
  return (stack: Parameters<Parameters<typeof BenchWorkspace.synth>[0]>[0]) => {
    if (iamChecks) new GoogleIamProvider(stack, 'googleiam', { iamChecks });
    for (let i = 0; i < n; i++) {
      new AuthorizationPolicyIamMember(stack, `M${i}`, {
        name: `projects/bench-project/locations/global/authorizationPolicies/ap-${Math.floor(i / PER_POLICY)}`,
        role: 'roles/networksecurity.viewer',
        member: `user:member-${i}@example.com`,
      });
    }
  };
}

export async function checksCost(runs: number, synthCount: number, lib: string, planCount = 1000): Promise<Row[]> {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const x = (value: number) => `${value.toFixed(2)}×`;
  const synth = (kind: 'checks' | 'grants') => () =>
    runWorker<{ ms: number }>(path.join(WORKERS, 'synth.js'), [kind, String(synthCount), lib]).then((r) => r.ms);
  const s = await compare(runs, synth('checks'), synth('grants'));
  const synthRatio = median(s.subject) / median(s.baseline);

  const checked = await BenchWorkspace.synth(grantsStack(planCount));
  const unchecked = await BenchWorkspace.synth(grantsStack(planCount, 'off'));
  try {
    const plan = (ws: BenchWorkspace) => () =>
      timeProcess('terraform', ['plan', '-input=false', '-no-color', '-lock=false'], TF_ENV, ws.dir);
    const p = await compare(runs, plan(checked), plan(unchecked));
    const planRatio = median(p.subject) / median(p.baseline);
    const n = synthCount.toLocaleString('en-US');
    const m = planCount.toLocaleString('en-US');
    return [
      {
        benchmark: `synth ${n} AuthorizationPolicyIamMember with GoogleIamChecks and its three reports vs without`,
        measured: ms(median(s.subject)),
        baseline: ms(median(s.baseline)),
        ratio: x(synthRatio),
        goal: '≤ 1.2×',
        met: synthRatio <= 1.2,
      },
      {
        benchmark: `terraform plan of ${m} new member grants with the provider's checks (iam_checks = "warn") vs iam_checks = "off"`,
        measured: ms(median(p.subject)),
        baseline: ms(median(p.baseline)),
        ratio: x(planRatio),
        goal: '≤ 1.1×',
        met: planRatio <= 1.1,
      },
    ];
  } finally {
    checked.dispose();
    unchecked.dispose();
  }
}
