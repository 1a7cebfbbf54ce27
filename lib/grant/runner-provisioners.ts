import type { GrantAction } from './grant-spec';
import { RUNNER_ENV } from './runner-env';

/** One local-exec body, as Terraform reads it. */
interface LocalExecBody {
  readonly command: GrantAction;
  readonly interpreter: unknown;
  readonly environment: unknown;
  readonly when?: 'destroy';
}

/**
 * A grant's two local-exec provisioners: `node <runner> apply` at create and
 * `node <runner> remove` at destroy, with no shell in between and the spec in
 * the environment.
 *
 * Terraform JSON gets a compact form: both bodies under one `local-exec`
 * label, `interpreter` and `environment` each a single expression. cdktf
 * resolves every key and value of every resource three times during synth,
 * so synth time grows with their count: the compact form has 31 per grant
 * instead of 41 (1,000 grants: 1.6× → 1.4× the synth time of as many native
 * IAM members, which have 19). HCL output keeps the plain blocks.
 */
export class RunnerProvisioners {
  private readonly jsonInterpreter: string;
  private readonly jsonEnvironment: string;

  /**
   * @param runnerPath the runner's path as Terraform sees it (a plain string)
   * @param specExpression Terraform expression, without `${}`, that yields the spec's JSON
   */
  constructor(private readonly runnerPath: string, private readonly specExpression: string) {
    this.jsonInterpreter = `\${${JSON.stringify(['node', runnerPath])}}`;
    this.jsonEnvironment = `\${{${RUNNER_ENV.spec} = ${specExpression}}}`;
  }

  /**
   * The `provisioner` value of the resource's JSON. Provisioners a user added
   * to the grant (cdktf renders them as a list) run after the grant's own.
   */
  public toJson(userProvisioners?: unknown): unknown {
    const [create, destroy] = this.bodies(this.jsonInterpreter, this.jsonEnvironment);
    if (userProvisioners === undefined) return { 'local-exec': [create, destroy] };
    return [{ 'local-exec': create }, { 'local-exec': destroy }, ...asList(userProvisioners)];
  }

  /** The `provisioner` value for cdktf's HCL renderer, user provisioners after the grant's own. */
  public toHcl(userProvisioners?: unknown): unknown[] {
    const environment = { [RUNNER_ENV.spec]: `\${${this.specExpression}}` };
    const ours = this.bodies(['node', this.runnerPath], environment).map((value) => ({
      'local-exec': { isBlock: true, type: 'list', storageClassType: 'object', value },
    }));
    return userProvisioners === undefined ? ours : [...ours, ...asList(userProvisioners)];
  }

  private bodies(interpreter: unknown, environment: unknown): [LocalExecBody, LocalExecBody] {
    return [
      { command: 'apply', interpreter, environment },
      { command: 'remove', interpreter, environment, when: 'destroy' },
    ];
  }
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}
