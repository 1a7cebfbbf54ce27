import { Fn, Token, type IResolvable, type ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { serializeReadQuery, type ReadQueryFields } from '../contract/read-query';
import { ExternalData } from './external-data';
import { runnerAssetPath } from './runner-asset';
import { escapeTemplate } from './terraform-expression';

/** Properties of a {@link RunnerRead}. */
export interface RunnerReadProps {
  /** The read (lib/contract/read-query.ts); values may be tokens. */
  readonly query: ReadQueryFields;
  /** Read only after these exist. @default - no dependencies */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * A read of Google at plan time, through this library's own runner:
 * Terraform's `external` data source runs `node <runner> read` with the query
 * on stdin. The runner authenticates itself (the grants' credentials), so no
 * token is ever an argument, an output, or part of the plan or the state
 * (the `http` data source would store an `Authorization` header in state).
 * An API error fails `terraform plan` with Google's status and message and
 * the reading construct's path.
 */
export class RunnerRead extends Construct {
  private readonly data: ExternalData;

  constructor(scope: Construct, id: string, props: RunnerReadProps) {
    super(scope, id);
    const query = Object.fromEntries(
      Object.entries(serializeReadQuery(props.query, scope.node.path)).map(([key, value]) => [key, escapeTemplate(value)]),
    );
    this.data = new ExternalData(this, 'Read', { program: ['node', runnerAssetPath(this), 'read'], query, dependsOn: props.dependsOn });
  }

  /** A string of the answer (`''` where Google left it out). */
  public field(name: string): string {
    return this.data.result(name);
  }

  /** A number of the answer. */
  public numberField(name: string): number {
    return Token.asNumber(Fn.tonumber(this.data.result(name)));
  }

  /**
   * A list or object of the answer (it travels as JSON text), as a resolvable
   * object: `Fn.jsondecode` gives a string token, which the jsii kernel cannot
   * hand to Python, Java, Go or .NET as the `IResolvable` this is declared as.
   */
  public jsonField(name: string): IResolvable {
    return Token.asAny(Fn.jsondecode(this.data.result(name)));
  }
}
