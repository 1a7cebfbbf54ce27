import { PolicyIdentity, type PolicyAddress } from '../iam/identity';
import { IAM_APIS, IAM_APIS_SOURCE, IAM_PATH_ABBREVIATIONS, USUAL_IAM_PATHS, type IamApiPathsRow } from './iam-apis.generated';

export { USUAL_IAM_PATHS };

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
  /** False when getIamPolicy takes no policy version (Cloud Storage objects: the policy is version 1, without conditions). */
  readonly versioned: boolean;
}

/**
 * Where an API version serves IAM, from its Discovery document's method paths: most at
 * `{version}/{name}:getIamPolicy` and `POST {version}/{name}:setIamPolicy` with `{ policy, updateMask? }`; Compute
 * Engine at `compute/{version}/{name}/getIamPolicy` with `optionsRequestedPolicyVersion`; Cloud Storage at
 * `storage/v1/{name}/iam`, `PUT` with the Policy as the body; BigQuery and Cloud DNS with their service path before
 * the version.
 */
export type IamApiPaths = IamApiPathsRow;

/** One API version with IAM-enabled collections. */
export interface IamApiVersion {
  readonly service: string;
  readonly apiVersion: string;
  /** Whether its SetIamPolicyRequest has `updateMask` (19 APIs' has not: Google rejects the field there). */
  readonly updateMask: boolean;
  /** Whether its Policy has `auditConfigs` (20 APIs' has not: Google rejects the field there). */
  readonly auditConfigs: boolean;
  readonly collections: readonly IamCollection[];
  readonly paths: IamApiPaths;
}

const SHAPE_OF_LETTER: Record<string, GetIamPolicyShape> = { G: 'GET', B: 'POST', Q: 'POST_QUERY', U: 'GET' };

/**
 * Google's full resource names that name what an API's paths name otherwise
 * (https://cloud.google.com/iam/docs/full-resource-names): Cloud Storage's
 * `projects/_/buckets/{bucket}` is the JSON API's `b/{bucket}` (and so on below it).
 */
const NAME_ALIASES: ReadonlyArray<{ readonly service: string; readonly from: RegExp; readonly to: string }> = [
  { service: 'storage', from: /^projects\/_\/buckets\/([^/]+)$/, to: 'b/$1' },
  { service: 'storage', from: /^projects\/_\/buckets\/([^/]+)\/managedFolders\/(.+)$/, to: 'b/$1/managedFolders/$2' },
  { service: 'storage', from: /^projects\/_\/buckets\/([^/]+)\/objects\/(.+)$/, to: 'b/$1/o/$2' },
];

let byApiVersion: Map<string, IamApiVersion> | undefined;
const patterns = new Map<string, RegExp>();

function apiVersions(): Map<string, IamApiVersion> {
  byApiVersion ??= new Map(
    IAM_APIS.map(([service, apiVersion, updateMask, auditConfigs, collections, paths]) => [
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
          versioned: entry[0].toUpperCase() !== 'U',
        })),
        paths: paths ?? USUAL_IAM_PATHS,
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

  /** The collection `name` belongs to (in either of its spellings, see `pathName`), or undefined when it matches none of the API version's patterns. */
  public static collection(service: string, apiVersion: string, name: string): IamCollection | undefined {
    const pathName = GoogleIamApis.pathName(service, name);
    return GoogleIamApis.apiVersion(service, apiVersion)?.collections.find((c) => GoogleIamApis.matches(c.template, pathName));
  }

  /**
   * The name as the API's paths take it: Google's full resource name of a Cloud Storage bucket,
   * `projects/_/buckets/{bucket}`, is `b/{bucket}` (the JSON API's and the google provider's form); any other name as it is.
   */
  public static pathName(service: string, name: string): string {
    for (const alias of NAME_ALIASES) if (alias.service === service && alias.from.test(name)) return name.replace(alias.from, alias.to);
    return name;
  }

  /** Which policy `address` is, whichever spelling of its name it uses (`pathName`): the PolicyIdentity key of its path name. */
  public static policyKey(address: PolicyAddress): string {
    return PolicyIdentity.of({ ...address, name: GoogleIamApis.pathName(address.service, address.name) }).key;
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

  /** The collection a path segment names: Cloud Storage's `b` is `buckets`, `o` `objects` (Discovery's resource names); others as they are. */
  public static collectionName(service: string, segment: string): string {
    return IAM_PATH_ABBREVIATIONS[`${service} ${segment}`] ?? segment;
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
