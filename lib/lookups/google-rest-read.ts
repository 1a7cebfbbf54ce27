import { Fn, TerraformProvider, TerraformStack, Token, type IResolvable, type ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import type { DataGoogleClientConfig } from '@cdktf/provider-google/lib/data-google-client-config';
import type { DataHttp } from '@cdktf/provider-http/lib/data-http';
import { serviceRootUrl, type GoogleService } from '../api/services';

/** Properties of a {@link GoogleRestRead}. */
export interface GoogleRestReadProps {
  /** The Google API, e.g. `networksecurity`. */
  readonly service: GoogleService;
  /** Path below the service root, e.g. `v1/projects/p/locations/global/addressGroups/ag:getIamPolicy`. May contain tokens. */
  readonly path: string;
  /**
   * Query parameters; values may be tokens.
   * @default - none
   */
  readonly query?: { [name: string]: string };
  /**
   * Read only after these exist.
   * @default - no dependencies
   */
  readonly dependsOn?: ITerraformDependable[];
}

const CLIENT_CONFIG_ID = 'GoogleIamClientConfig';
const GOOGLE_PROVIDER_ID = 'GoogleIamGoogleProvider';
const HTTP_PROVIDER_ID = 'GoogleIamHttpProvider';

/**
 * A Google REST GET read by Terraform at plan time: Terraform's `http` data
 * source, authorized with the google provider's access token (from
 * `google_client_config`, so no credential is ever written into the
 * configuration), and a postcondition that fails the plan with the API's
 * status and message. The providers are added only if the stack lacks them.
 */
export class GoogleRestRead extends Construct {
  /** The stack's one `google_client_config` (created on first use). */
  public static clientConfigOf(scope: Construct): DataGoogleClientConfig {
    const stack = TerraformStack.of(scope);
    const existing = stack.node.tryFindChild(CLIENT_CONFIG_ID) as DataGoogleClientConfig | undefined;
    if (existing) return existing;
    ensureProvider(stack, 'google', () => {
      const { GoogleProvider } = require('@cdktf/provider-google/lib/provider') as typeof import('@cdktf/provider-google/lib/provider');
      new GoogleProvider(stack, GOOGLE_PROVIDER_ID, {});
    });
    const { DataGoogleClientConfig: ClientConfig } = require('@cdktf/provider-google/lib/data-google-client-config') as typeof import('@cdktf/provider-google/lib/data-google-client-config');
    return new ClientConfig(stack, CLIENT_CONFIG_ID, {});
  }

  /** The response body (JSON text) as a Terraform expression. */
  public readonly body: string;
  /** The URL that is read. */
  public readonly url: string;

  private readonly http: DataHttp;

  constructor(scope: Construct, id: string, props: GoogleRestReadProps) {
    super(scope, id);
    const clientConfig = GoogleRestRead.clientConfigOf(this);
    const stack = TerraformStack.of(this);
    ensureProvider(stack, 'http', () => {
      const { HttpProvider } = require('@cdktf/provider-http/lib/provider') as typeof import('@cdktf/provider-http/lib/provider');
      new HttpProvider(stack, HTTP_PROVIDER_ID, {});
    });

    // The endpoint override in the environment at synth time (as for the runner), else Google's.
    this.url = serviceRootUrl(props.service, process.env) + props.path + queryString(props.query);
    const { DataHttp: Http } = require('@cdktf/provider-http/lib/data-http') as typeof import('@cdktf/provider-http/lib/data-http');
    this.http = new Http(this, 'Read', {
      url: this.url,
      requestHeaders: { Authorization: `Bearer ${clientConfig.accessToken}`, Accept: 'application/json' },
      dependsOn: props.dependsOn,
      lifecycle: {
        postcondition: [{
          condition: '${self.status_code == 200}',
          errorMessage: 'GET ${self.url} answered HTTP ${self.status_code}: ${self.response_body}',
        }],
      },
    });
    this.body = this.http.responseBody;
  }

  /** A string field of the JSON body, by dotted path (`a.b`); `''` when absent. */
  public field(path: string): string {
    return Token.asString(this.lookup(path, ''));
  }

  /** A number field of the JSON body, by dotted path; `0` when absent. */
  public numberField(path: string): number {
    return Token.asNumber(this.lookup(path, 0));
  }

  /** A list or object field of the JSON body, by dotted path; `fallback` when absent. */
  public anyField(path: string, fallback: unknown): IResolvable {
    return this.lookup(path, fallback);
  }

  private lookup(path: string, fallback: unknown): IResolvable {
    return Fn.try([Fn.lookupNested(Fn.jsondecode(this.body), path.split('.')), fallback]) as IResolvable;
  }
}

function ensureProvider(stack: TerraformStack, type: string, add: () => void): void {
  const has = stack.node.findAll().some((c) => c instanceof TerraformProvider && c.terraformResourceType === type);
  if (!has) add();
}

function queryString(query: GoogleRestReadProps['query']): string {
  const entries = Object.entries(query ?? {});
  if (entries.length === 0) return '';
  // Tokens are left for Terraform to fill in; known values are escaped here.
  return `?${entries.map(([k, v]) => `${encodeURIComponent(k)}=${Token.isUnresolved(v) ? v : encodeURIComponent(v)}`).join('&')}`;
}
