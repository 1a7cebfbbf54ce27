import * as http from 'http';
import type { AddressInfo } from 'net';
import type { Policy } from '../../iam/types';
import { GET_IAM_POLICY_SHAPES, GoogleIamApis, USUAL_IAM_PATHS, type GetIamPolicyShape, type IamApiPaths } from '../../api/iam-apis';
import { EXTRA_ROLES_VARIABLE, isRoleAccepted, parseExtraRoles } from '../../iam/role-check';
import type { RoleTarget } from '../../iam/role-grantability';
import { templateRoleTarget } from '../../resource-types/role-target';
import { ApiError, FrontEndNotFound, frontEndNotFound, invalidArgument, notFound, rejectUnknownFields } from './api-error';
import { AuthEndpoints } from './auth-endpoints';
import { FaultInjector, type EmulatedMethod, type FaultOptions } from './faults';
import { IamPolicyStore, type PolicyFields, type PolicyWrite, type Visibility } from './iam-store';
import { ImportJobStore } from './import-job-store';

/** Options of `GoogleApiEmulator.start`. */
export interface EmulatorOptions {
  /** @default 0 (any free port) */
  readonly port?: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** Bearer tokens answered with 403 PERMISSION_DENIED. @default [GoogleApiEmulator.DENIED_TOKEN] */
  readonly deniedTokens?: readonly string[];
  /** @default - no faults */
  readonly faults?: FaultOptions;
  /** Delay before each API answer, to mimic network round trips. @default 0 */
  readonly latencyMs?: number;
  /**
   * Reads lag writes by this long, as Google's IAM reads may: getIamPolicy answers the newest version of
   * the policy at least this old (see `setReadLag`). @default 0 (every read sees the last write)
   */
  readonly readLagMs?: number;
  /** One line per API request. @default - silent */
  readonly log?: (line: string) => void;
  /**
   * IAM-enabled collections served besides those Google publishes (the table generated from its
   * Discovery documents, which the emulator serves by default), e.g. an API released since.
   * @default - none
   */
  readonly collections?: readonly EmulatedCollection[];
  /**
   * Accept any role in setIamPolicy, for tests that grant made-up roles. By default the emulator is as strict
   * as Google: a `roles/…` that Google's role catalogue (the library's table of its basic and predefined roles)
   * does not list, or that holds no permission on the resource's type, is refused with 400 INVALID_ARGUMENT
   * "Role roles/… is not supported for this resource."; custom roles (`projects/…/roles/…`,
   * `organizations/…/roles/…`) and the roles `CDKTF_GOOGLE_IAM_EXTRA_ROLES` lists are accepted.
   * @default false
   */
  readonly acceptAnyRole?: boolean;
}

/** An IAM-enabled collection a test registers, served as strictly as Google's own. */
export interface EmulatedCollection {
  /** The API, e.g. `widgets` for `widgets.googleapis.com`. */
  readonly service: string;
  /** e.g. `v1`. */
  readonly apiVersion: string;
  /** The names it holds: `*` one segment, `**` any rest, anything else literal, e.g. `projects/*\/widgets/*`. */
  readonly template: string;
  /**
   * `GET` (version in the query), `POST` (version in the body) or `POST_QUERY` (POST, version in the query, no body).
   * @default 'GET'
   */
  readonly getIamPolicyMethod?: GetIamPolicyShape;
  /**
   * Whether its SetIamPolicyRequest has `updateMask` (else the field is a 400, as on Google).
   * @default true
   */
  readonly updateMask?: boolean;
  /**
   * Whether its Policy has `auditConfigs` (else the field is a 400, as on Google).
   * @default true
   */
  readonly auditConfigs?: boolean;
}

/** What the emulator serves a collection as: its getIamPolicy shape, and the fields its setIamPolicy takes. */
interface ServedCollection {
  readonly shape: GetIamPolicyShape;
  /** False where getIamPolicy takes no policy version (Cloud Storage objects). */
  readonly versioned: boolean;
  readonly writable: boolean;
  /** Where the API serves the collection's IAM methods. */
  readonly paths: IamApiPaths;
  readonly fields: PolicyFields;
  /** The resource type its roles must be grantable on. */
  readonly roleTarget?: RoleTarget;
}

/** What the emulator has answered, counted per method and outcome. */
export interface EmulatorStats {
  getIamPolicy: number;
  setIamPolicy: number;
  getImportJob: number;
  /** Cloud Resource Manager's projects.get (a project number's id). */
  getProject: number;
  /** setIamPolicy calls refused for a stale etag (injected 409s not included). */
  conflicts: number;
  faultsInjected: number;
  /** Every API request, answered or not. */
  requests: number;
  /** Requests answered with 4xx (auth, validation, not found, conflicts). */
  rejected: number;
}

/**
 * An IAM method's path: `/{service}/{servicePath}{version}/{resource}{suffix}`, the suffix `:getIamPolicy`,
 * `:setIamPolicy`, `/getIamPolicy`, `/setIamPolicy` or `/iam` (GoogleIamApis' paths). The service prefix is what
 * `env()` and `endpoint()` put in front (so one emulator serves any service); without it the path is as on Google.
 */
const IAM_SUFFIX = /(:getIamPolicy|:setIamPolicy|\/getIamPolicy|\/setIamPolicy|\/iam)$/;
const IMPORT_JOB_PATH = /^\/(?:migrationcenter\/)?v1alpha1\/(projects\/[^/]+\/locations\/[^/]+\/importJobs\/[^/:]+)$/;
const PROJECT_PATH = /^\/(?:cloudresourcemanager\/)?v3\/projects\/([^/:]+)$/;
const ADMIN_PREFIX = '/__emulator/';

/**
 * A local stand-in for the Google endpoints this library calls (Migration
 * Center's import jobs, and `:getIamPolicy`/`:setIamPolicy` of every
 * IAM-enabled collection Google publishes, plus those a test registers),
 * served over real HTTP so the real google-auth-library client, the real
 * provider and the real `terraform` talk to it. It is as strict as Google, from
 * the table generated from Google's Discovery documents: another verb than
 * the collection's is the front end's 404 page, a JSON field the schema lacks
 * a 400 INVALID_ARGUMENT naming it, a policy version in the other place is
 * ignored. For this project's tests and its users' (`cdktf-google-iam/testing`).
 */
export class GoogleApiEmulator {
  /** The token `env()` hands out. The API accepts it, the tokens `auth` issued and those accepted through `auth` or `env()`. */
  public static readonly ACCESS_TOKEN = 'emulator-access-token';
  /** A token the API answers with 403 PERMISSION_DENIED. */
  public static readonly DENIED_TOKEN = 'emulator-denied-token';
  /** The services `env()` points here. */
  public static readonly SERVICES: readonly string[] = ['networksecurity', 'datamigration', 'migrationcenter', 'cloudresourcemanager'];

  public static async start(options: EmulatorOptions = {}): Promise<GoogleApiEmulator> {
    const emulator = new GoogleApiEmulator(options);
    await new Promise<void>((resolve, reject) => {
      emulator.server.once('error', reject);
      emulator.server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    return emulator;
  }

  /** The OAuth, STS and IAM Credentials endpoints, and the tokens the API accepts (auth-endpoints.ts). */
  public readonly auth: AuthEndpoints;
  private readonly server: http.Server;
  private readonly policies = new IamPolicyStore();
  private readonly importJobs = new ImportJobStore();
  /** Projects by number → id, for names that give a project by its number (`addProject`). */
  private readonly projects = new Map<string, string>();
  private readonly deniedTokens: ReadonlySet<string>;
  private readonly collections: EmulatedCollection[] = [];
  /** The roles accepted beyond Google's catalogue: `CDKTF_GOOGLE_IAM_EXTRA_ROLES` as the emulator started. */
  private readonly extraRoles = parseExtraRoles(process.env[EXTRA_ROLES_VARIABLE]);
  private faults?: FaultInjector;
  /**
   * Called after a setIamPolicy is carried out, before it is answered (with the request's path): a test's way
   * to lose the answer of a write that took effect (throw an ApiError) or to hold it in flight (return a promise).
   */
  public afterWrite?: (path: string) => void | Promise<void>;
  private counters: EmulatorStats = emptyStats();

  private constructor(private readonly options: EmulatorOptions) {
    for (const collection of options.collections ?? []) this.registerCollection(collection);
    this.deniedTokens = new Set(options.deniedTokens ?? [GoogleApiEmulator.DENIED_TOKEN]);
    this.auth = new AuthEndpoints([GoogleApiEmulator.ACCESS_TOKEN], this.deniedTokens);
    this.setFaults(options.faults);
    this.setReadLag(options.readLagMs ?? 0);
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  /** `http://host:port`, no trailing slash. */
  public get url(): string {
    const { address, port } = this.server.address() as AddressInfo;
    return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  }

  /** The root URL that stands in for `https://{service}.googleapis.com/` (ends in `/`). */
  public endpoint(service: string): string {
    return `${this.url}/${service}/`;
  }

  /**
   * Endpoint overrides (gcloud's `CLOUDSDK_API_ENDPOINT_OVERRIDES_{SERVICE}`) and an access token that
   * point the provider and the lookups here: for the services this library calls (Cloud Resource Manager for a
   * project number's id), plus `services`.
   */
  public env(token: string = GoogleApiEmulator.ACCESS_TOKEN, services: readonly string[] = []): Record<string, string> {
    this.auth.acceptToken(token);
    const overrides = [...GoogleApiEmulator.SERVICES, ...services].map((service) => [
      `CLOUDSDK_API_ENDPOINT_OVERRIDES_${service.toUpperCase()}`,
      this.endpoint(service),
    ]);
    return {
      ...Object.fromEntries(overrides),
      GOOGLE_OAUTH_ACCESS_TOKEN: token,
      METADATA_SERVER_DETECTION: 'none',
    };
  }

  /** Serves one more IAM-enabled collection besides those Google publishes. */
  public registerCollection(collection: EmulatedCollection): void {
    const shape = collection.getIamPolicyMethod ?? 'GET';
    if (!GET_IAM_POLICY_SHAPES.includes(shape))
      throw new Error(`getIamPolicyMethod: expected ${GET_IAM_POLICY_SHAPES.join(', ')} (got ${shape})`);
    this.collections.push({ ...collection, getIamPolicyMethod: shape });
  }

  /**
   * Creates (or resets) an IAM-enabled resource, with no policy unless one is given. With `visibility`, it
   * stays invisible to IAM for a while (404, or 403), as a resource Google created moments ago.
   */
  public addResource(name: string, policy?: Policy, visibility?: Visibility): void {
    this.policies.add(this.canonical(name), policy, visibility);
  }

  /**
   * A project with its id and number: names that start with `projects/{number}` then name the same
   * resources (and policies) as `projects/{id}`, as on Google, and Cloud Resource Manager's
   * `GET v3/projects/{id or number}` answers it. Resources are kept, and `writes` lists them, by id.
   */
  public addProject(projectId: string, projectNumber: string): void {
    this.projects.set(projectNumber, projectId);
  }

  /** `name` with a project number of `addProject` written as the project's id. */
  private canonical(written: string): string {
    // A bucket's full resource name, `projects/_/buckets/{bucket}`, is the JSON API's `b/{bucket}`.
    const name = GoogleIamApis.pathName('storage', written);
    const match = /^projects\/([0-9]+)(\/|$)/.exec(name);
    const id = match && this.projects.get(match[1]);
    return id ? `projects/${id}${name.slice(`projects/${match[1]}`.length)}` : name;
  }

  /**
   * A service account that setIamPolicy refuses as a member for `refusedForMs` from now (400 "Service account
   * … does not exist"), as Google does for one created moments ago. Others are accepted as always.
   */
  public addServiceAccount(email: string, refusedForMs = 0): void {
    this.policies.addServiceAccount(email, refusedForMs);
  }

  /** Reads lag writes by `ms` from now on: getIamPolicy answers the newest version at least that old (0: none). */
  public setReadLag(ms: number): void {
    if (!(Number.isFinite(ms) && ms >= 0)) throw new Error(`read lag must be a non-negative number of ms (got ${ms})`);
    this.policies.readLagMs = ms;
  }

  /**
   * The next `reads` getIamPolicy calls (of `name`, or of any resource) answer the version `versionsBack`
   * before the current one, as a replica that is behind may: Google's IAM reads are eventually consistent
   * and promise no order, so a read can answer an older version than the read before it.
   */
  public staleNextReads(reads: number, versionsBack: number, name?: string): void {
    this.policies.staleNextReads(reads, versionsBack, name === undefined ? undefined : this.canonical(name));
  }

  /** Deletes an IAM-enabled resource: its policy calls then answer 404 NOT_FOUND. */
  public removeResource(name: string): void {
    this.policies.remove(this.canonical(name));
  }

  /** Adds an import job as the API returns it (wire JSON, `name` is its full resource name). */
  public addImportJob(job: Record<string, unknown>): void {
    this.importJobs.add(job);
  }

  /** The resource's current policy, as a version 3 read returns it (no lag, no visibility delay). */
  public policy(name: string): Policy {
    return this.policies.current(this.canonical(name));
  }

  /**
   * Every accepted setIamPolicy since the start (or `clearWrites()`), oldest first: the policy each
   * write left behind, as a version 3 read returns it. Restrict to one resource with `name`.
   */
  public writes(name?: string): PolicyWrite[] {
    return this.policies.writes(name === undefined ? undefined : this.canonical(name));
  }

  public clearWrites(): void {
    this.policies.clearWrites();
  }

  public setFaults(faults: FaultOptions | undefined): void {
    this.faults = faults && faults.rate > 0 ? new FaultInjector(faults) : undefined;
  }

  public stats(): EmulatorStats {
    return { ...this.counters };
  }

  public resetStats(): void {
    this.counters = emptyStats();
  }

  public async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = decodeURIComponent(url.pathname);
    const body = await readBody(req);
    if (path.startsWith(ADMIN_PREFIX)) {
      this.answerAdmin(path.slice(ADMIN_PREFIX.length), req.method ?? 'GET', body, res);
      return;
    }
    if (this.auth.serve(req.method ?? 'GET', url, req.headers, body, res)) return;
    this.counters.requests++;
    if (this.options.latencyMs) await new Promise((r) => setTimeout(r, this.options.latencyMs));
    let status = 200;
    try {
      const route = this.route(req.method ?? 'GET', path);
      this.authorize(req.headers);
      this.counters[route.method]++;
      const fault = this.faults?.decide(route.method) ?? { kind: 'none' };
      if (fault.kind !== 'none') this.counters.faultsInjected++;
      if (fault.kind === 'reset') {
        this.log(req, path, 'connection reset (injected)');
        req.socket.destroy();
        return;
      }
      if (fault.kind === 'error') throw fault.error;
      if (fault.kind === 'malformed') {
        // A 200 that is not Google's JSON (a captive portal page, a broken proxy): the request is not served.
        res.writeHead(200, { 'Content-Type': fault.contentType, 'Content-Length': Buffer.byteLength(fault.body) });
        res.end(fault.body);
        this.log(req, path, '200 malformed (injected)');
        return;
      }
      const answer = route.answer(url.searchParams, parseJson(body));
      if (route.method === 'setIamPolicy') await this.afterWrite?.(path);
      send(res, 200, answer);
    } catch (error) {
      if (error instanceof FrontEndNotFound) {
        this.counters.rejected++;
        const page = error.html();
        res.writeHead(404, { 'Content-Type': 'text/html; charset=UTF-8', 'Content-Length': Buffer.byteLength(page) });
        res.end(page);
        this.log(req, path, '404 (front end)');
        return;
      }
      const apiError = error instanceof ApiError ? error : new ApiError(500, 'INTERNAL', String((error as Error)?.message ?? error));
      status = apiError.code;
      if (status >= 400 && status < 500) this.counters.rejected++;
      if (apiError.status === 'ABORTED' && !apiError.message.includes('injected')) this.counters.conflicts++;
      send(res, status, apiError.body());
    }
    this.log(req, path, String(status));
  }

  private route(method: string, path: string): { method: EmulatedMethod; answer: (query: URLSearchParams, body: unknown) => unknown } {
    const iam = this.iamCallOf(path);
    if (iam) {
      const { collection, resource, suffix } = iam;
      const { paths } = collection;
      // Google's front end knows each method by its path and verb: any other is a 404 before the API sees it.
      const getVerb = collection.shape === 'GET' ? 'GET' : 'POST';
      const isGet = suffix === paths.getSuffix && (paths.getSuffix !== paths.setSuffix || method === getVerb);
      if (isGet && method !== getVerb) throw frontEndNotFound(path);
      if (!isGet && (suffix !== paths.setSuffix || method !== paths.setVerb || !collection.writable)) throw frontEndNotFound(path);
      const name = this.canonical(resource);
      if (isGet) {
        return {
          method: 'getIamPolicy',
          // A version in the other place is ignored, as Google ignores it.
          answer: (query, body) =>
            this.answered(
              collection,
              name,
              this.policies.get(
                name,
                collection.shape === 'POST'
                  ? requestedVersionInBody(body)
                  : collection.versioned
                    ? requestedVersion(query, paths.versionParameter)
                    : 1,
              ),
            ),
        };
      }
      const acceptsRole = (role: string) =>
        this.options.acceptAnyRole === true || isRoleAccepted(role, collection.roleTarget, { extraRoles: this.extraRoles });
      return {
        method: 'setIamPolicy',
        answer: (_query, body) => this.answered(collection, name, this.policies.set(name, body, collection.fields, acceptsRole)),
      };
    }
    const job = IMPORT_JOB_PATH.exec(path);
    if (job && method === 'GET') {
      return { method: 'getImportJob', answer: (query) => this.importJobs.get(job[1], query.get('view')) };
    }
    const project = PROJECT_PATH.exec(path);
    if (project && method === 'GET') return { method: 'getProject', answer: () => this.project(project[1]) };
    throw notFound(`The requested URL ${method} ${path} was not found on this server.`);
  }

  /** The policy as the API answers it: Cloud Storage's carries its `kind` and `resourceId`. */
  private answered(collection: ServedCollection, name: string, policy: Policy): unknown {
    if (!collection.paths.policyBody) return policy;
    return { kind: 'storage#policy', resourceId: name.replace(/^b\/([^/]+)/, 'projects/_/buckets/$1'), ...policy };
  }

  /**
   * The IAM call a path makes: the collection (registered, or published) of the resource it names, with or
   * without the `env()` prefix, with the API's service path where it has one (`compute/v1/...`).
   */
  private iamCallOf(path: string): { collection: ServedCollection; resource: string; suffix: string } | undefined {
    const suffix = IAM_SUFFIX.exec(path)?.[1];
    if (!suffix) return undefined;
    const segments = path.slice(1, -suffix.length).split('/');
    // [the env() prefix (a service), the rest]: first with a prefix, then as on Google.
    const candidates: [string | undefined, string[]][] = [
      [segments[0], segments.slice(1)],
      [undefined, segments],
    ];
    for (const [prefix, rest] of candidates) {
      // The API's own service path (`compute/`), then none.
      for (const servicePath of [rest[0], undefined]) {
        if (servicePath !== undefined && prefix !== undefined && prefix !== servicePath) continue;
        const service = servicePath ?? prefix;
        const [apiVersion, ...name] = servicePath === undefined ? rest : rest.slice(1);
        if (!apiVersion || name.length < 2) continue;
        const collection = this.collectionOf(service, apiVersion, name.join('/'), servicePath === undefined ? '' : `${servicePath}/`);
        if (collection) return { collection, resource: name.join('/'), suffix };
      }
    }
    return undefined;
  }

  /**
   * The collection `resource` belongs to: a registered one, else one Google publishes for the service and
   * version at that service path (for a path without the service prefix, for any service with that version).
   */
  private collectionOf(
    service: string | undefined,
    apiVersion: string,
    resource: string,
    servicePath: string,
  ): ServedCollection | undefined {
    const registered =
      servicePath === ''
        ? this.collections.find(
            (c) =>
              (service === undefined || c.service === service) &&
              c.apiVersion === apiVersion &&
              GoogleIamApis.matches(c.template, resource),
          )
        : undefined;
    if (registered) {
      const fields = { updateMask: registered.updateMask ?? true, auditConfigs: registered.auditConfigs ?? true };
      return {
        shape: registered.getIamPolicyMethod ?? 'GET',
        versioned: true,
        writable: true,
        paths: USUAL_IAM_PATHS,
        fields,
        roleTarget: templateRoleTarget(registered.service, registered.template),
      };
    }
    const published =
      service === undefined
        ? GoogleIamApis.collectionOfAnyService(apiVersion, resource)
        : GoogleIamApis.collection(service, apiVersion, resource);
    const api = published && GoogleIamApis.apiVersion(published.service, published.apiVersion);
    if (!published || !api || api.paths.servicePath !== servicePath) return undefined;
    return {
      shape: published.shape,
      versioned: published.versioned,
      writable: published.writable,
      paths: api.paths,
      fields: { updateMask: api.updateMask, auditConfigs: api.auditConfigs, policyBody: api.paths.policyBody },
      roleTarget: templateRoleTarget(published.service, published.template),
    };
  }

  /** Cloud Resource Manager v3 `projects.get`, by id or number: 403 for a project it does not know, as Google answers. */
  private project(idOrNumber: string): Record<string, string> {
    const number = /^[0-9]+$/.test(idOrNumber)
      ? this.projects.has(idOrNumber)
        ? idOrNumber
        : undefined
      : [...this.projects].find(([, id]) => id === idOrNumber)?.[0];
    if (number === undefined) {
      throw new ApiError(
        403,
        'PERMISSION_DENIED',
        `Permission 'resourcemanager.projects.get' denied on resource '//cloudresourcemanager.googleapis.com/projects/${idOrNumber}' (or it may not exist).`,
      );
    }
    return { name: `projects/${number}`, projectId: this.projects.get(number)!, state: 'ACTIVE', displayName: this.projects.get(number)! };
  }

  private authorize(headers: http.IncomingHttpHeaders): void {
    const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    if (!token) {
      throw new ApiError(401, 'UNAUTHENTICATED', 'Request is missing required authentication credential. Expected OAuth 2 access token.');
    }
    if (this.deniedTokens.has(token)) {
      throw new ApiError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
    }
    this.auth.authorizeApiCall(token, headers);
  }

  /** Seeding and inspection from another process (see cli.ts). */
  private answerAdmin(action: string, method: string, body: string, res: http.ServerResponse): void {
    try {
      const input = parseJson(body) as {
        name?: string;
        policy?: Policy;
        job?: Record<string, unknown>;
        faults?: FaultOptions;
        visibleAfterMs?: number;
        hiddenAs?: 404 | 403;
        email?: string;
        refusedForMs?: number;
        ms?: number;
        projectId?: string;
        projectNumber?: string;
      };
      if (action === 'resources' && method === 'POST' && input.name)
        this.addResource(input.name, input.policy, { visibleAfterMs: input.visibleAfterMs, hiddenAs: input.hiddenAs });
      else if (action === 'service-accounts' && method === 'POST' && input.email) this.addServiceAccount(input.email, input.refusedForMs);
      else if (action === 'read-lag' && method === 'POST' && typeof input.ms === 'number') this.setReadLag(input.ms);
      else if (action === 'remove-resource' && method === 'POST' && input.name) this.removeResource(input.name);
      else if (action === 'projects' && method === 'POST' && input.projectId && input.projectNumber)
        this.addProject(input.projectId, input.projectNumber);
      else if (action === 'import-jobs' && method === 'POST' && input.job) this.addImportJob(input.job);
      else if (action === 'faults' && method === 'POST') this.setFaults(input.faults);
      else if (action === 'stats' && method === 'GET') return send(res, 200, this.stats());
      else if (action === 'writes' && method === 'GET') return send(res, 200, this.writes());
      else if (action.startsWith('policies/') && method === 'GET') return send(res, 200, this.policy(action.slice('policies/'.length)));
      else throw notFound(`unknown emulator admin call ${method} ${ADMIN_PREFIX}${action}`);
      send(res, 200, {});
    } catch (error) {
      const apiError = error instanceof ApiError ? error : invalidArgument(String((error as Error).message));
      send(res, apiError.code, apiError.body());
    }
  }

  private log(req: http.IncomingMessage, path: string, outcome: string): void {
    this.options.log?.(`emulator: ${req.method} ${path} -> ${outcome}`);
  }
}

function emptyStats(): EmulatorStats {
  return { getIamPolicy: 0, setIamPolicy: 0, getImportJob: 0, getProject: 0, conflicts: 0, faultsInjected: 0, requests: 0, rejected: 0 };
}

/** The version in the query parameter the API names it by (`options.requestedPolicyVersion`, `optionsRequestedPolicyVersion`). */
function requestedVersion(query: URLSearchParams, parameter: string): number {
  const raw = query.get(parameter);
  if (raw === null || raw === '') return 0;
  const field = parameter === 'options.requestedPolicyVersion' ? 'options.requested_policy_version' : parameter;
  if (!/^-?\d+$/.test(raw)) throw invalidArgument(`Invalid value at '${field}' (TYPE_INT32), "${raw}"`);
  return Number(raw);
}

function requestedVersionInBody(body: unknown): number {
  rejectUnknownFields(body, ['options'], '');
  const options = (body as { options?: unknown } | undefined)?.options;
  rejectUnknownFields(options, ['requestedPolicyVersion'], 'options');
  const version = (options as { requestedPolicyVersion?: unknown } | undefined)?.requestedPolicyVersion;
  if (version === undefined) return 0;
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    throw invalidArgument(`Invalid value at 'options.requested_policy_version' (TYPE_INT32), ${JSON.stringify(version)}`);
  }
  return version;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(body: string): unknown {
  if (!body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    throw invalidArgument('Invalid JSON payload received.');
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
