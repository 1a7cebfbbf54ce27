import { IAM_APIS, IAM_APIS_SOURCE, IAM_ELSEWHERE } from './iam-apis.generated';

/**
 * How a collection's `getIamPolicy` takes the policy version, as Google's
 * Discovery document describes it: `GET` with `options.requestedPolicyVersion`
 * in the query, `POST` with `{"options":{"requestedPolicyVersion":N}}` in the
 * body, or `POST_QUERY`: a POST with the version in the query and no body
 * (aiplatform, iam `projects.serviceAccounts`).
 */
export type GetIamPolicyShape = 'GET' | 'POST' | 'POST_QUERY';

/** The shapes, for validation and messages. */
export const GET_IAM_POLICY_SHAPES: readonly GetIamPolicyShape[] = ['GET', 'POST', 'POST_QUERY'];

/** One IAM-enabled collection served at `{version}/{name}:getIamPolicy`. */
export interface IamCollection {
  readonly service: string;
  readonly apiVersion: string;
  /** The resource names it holds, e.g. `projects/*\/secrets/*` (`*` one segment, `**` any rest). */
  readonly template: string;
  readonly shape: GetIamPolicyShape;
  /** False when Google publishes getIamPolicy only: the policy can be read, not written. */
  readonly writable: boolean;
}

/** One API version with IAM-enabled collections. */
export interface IamApiVersion {
  readonly service: string;
  readonly apiVersion: string;
  /** Whether its SetIamPolicyRequest has `updateMask` (19 APIs' has not: Google rejects the field there). */
  readonly updateMask: boolean;
  /** Whether its Policy has `auditConfigs` (20 APIs' has not: Google rejects the field there). */
  readonly auditConfigs: boolean;
  readonly collections: readonly IamCollection[];
}

/** A collection with IAM that Google serves at another path (compute, storage, bigquery, dns, deploymentmanager). */
export interface IamCollectionElsewhere {
  readonly service: string;
  readonly apiVersions: readonly string[];
  readonly template: string;
  /** The google provider's resource prefix, e.g. `google_storage_bucket_iam` (`_member`, `_binding`, `_policy`); undefined when it has none. */
  readonly providerResource?: string;
}

const SHAPE_OF_LETTER: Record<string, GetIamPolicyShape> = { G: 'GET', B: 'POST', Q: 'POST_QUERY' };

let byApiVersion: Map<string, IamApiVersion> | undefined;
let elsewhere: IamCollectionElsewhere[] | undefined;
const patterns = new Map<string, RegExp>();

function apiVersions(): Map<string, IamApiVersion> {
  byApiVersion ??= new Map(
    IAM_APIS.map(([service, apiVersion, updateMask, auditConfigs, collections]) => [
      `${service} ${apiVersion}`,
      {
        service,
        apiVersion,
        updateMask,
        auditConfigs,
        collections: collections.map((entry) => ({
          service,
          apiVersion,
          template: entry.slice(2),
          shape: SHAPE_OF_LETTER[entry[0].toUpperCase()],
          writable: entry[0] === entry[0].toUpperCase(),
        })),
      },
    ]),
  );
  return byApiVersion;
}

/**
 * Google's published IAM surface, from the table generated from its Discovery
 * documents (lib/api/iam-apis.generated.ts): which collections have
 * getIamPolicy, in which shape, and whether setIamPolicy takes `updateMask`.
 */
export class GoogleIamApis {
  /** Where the table comes from, e.g. `googleapis 188.0.0`. */
  public static readonly SOURCE: string = IAM_APIS_SOURCE;

  /** The API version, or undefined when Google publishes no IAM-enabled collection at `{version}/{name}:getIamPolicy` for it. */
  public static apiVersion(service: string, apiVersion: string): IamApiVersion | undefined {
    return apiVersions().get(`${service} ${apiVersion}`);
  }

  /** The versions of `service` with IAM-enabled collections, e.g. `['v1', 'v1beta1']`. */
  public static versionsOf(service: string): string[] {
    return [...apiVersions().values()].filter((a) => a.service === service).map((a) => a.apiVersion);
  }

  /** The collection `name` belongs to, or undefined when it matches none of the API version's patterns. */
  public static collection(service: string, apiVersion: string, name: string): IamCollection | undefined {
    return GoogleIamApis.apiVersion(service, apiVersion)?.collections.find((c) => GoogleIamApis.matches(c.template, name));
  }

  /**
   * The collection of any API with version `apiVersion` that `name` belongs to, for a request that does not say
   * which API; a pattern without `**` (iap's `^.*$` matches any name) wins.
   */
  public static collectionOfAnyService(apiVersion: string, name: string): IamCollection | undefined {
    const matches = [...apiVersions().values()]
      .filter((api) => api.apiVersion === apiVersion)
      .flatMap((api) => api.collections.filter((c) => GoogleIamApis.matches(c.template, name)));
    return matches.find((c) => !c.template.includes('**')) ?? matches[0];
  }

  /** The collections of `service` served elsewhere (empty for an API served at `{version}/{name}:getIamPolicy`). */
  public static elsewhere(service: string): IamCollectionElsewhere[] {
    elsewhere ??= IAM_ELSEWHERE.map(([svc, versions, template, providerResource]) => ({
      service: svc,
      apiVersions: versions.split(' '),
      template,
      ...(providerResource ? { providerResource } : {}),
    }));
    return elsewhere.filter((e) => e.service === service);
  }

  /** Whether `name` is one of the names `template` describes (`*` one segment, `**` any rest, the rest literal). */
  public static matches(template: string, name: string): boolean {
    let pattern = patterns.get(template);
    if (!pattern) {
      const source = template
        .split('/')
        .map((segment) => (segment === '**' ? '.+' : segment === '*' ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      pattern = new RegExp(`^${source}$`);
      patterns.set(template, pattern);
    }
    return pattern.test(name);
  }
}
