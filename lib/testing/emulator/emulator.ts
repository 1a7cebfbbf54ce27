import * as http from 'http';
import type { AddressInfo } from 'net';
import type { Policy } from '../../iam/types';
import { ApiError, invalidArgument, notFound, rejectUnknownFields } from './api-error';
import { AuthEndpoints } from './auth-endpoints';
import { FaultInjector, type EmulatedMethod, type FaultOptions } from './faults';
import { IamPolicyStore, type PolicyWrite } from './iam-store';
import { ImportJobStore } from './import-job-store';

/** Options of {@link GoogleApiEmulator.start}. */
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
  /** One line per API request. @default - silent */
  readonly log?: (line: string) => void;
  /**
   * Services whose `getIamPolicy` is a POST with `{"options": {"requestedPolicyVersion": N}}` in the
   * body (as Cloud Resource Manager's); every other service answers a GET with
   * `options.requestedPolicyVersion` in the query, and the other verb is a 404, as on Google.
   * @default GoogleApiEmulator.POST_GET_IAM_POLICY_SERVICES
   */
  readonly postGetIamPolicyServices?: readonly string[];
}

/** What the emulator has answered, counted per method and outcome. */
export interface EmulatorStats {
  getIamPolicy: number;
  setIamPolicy: number;
  getImportJob: number;
  /** setIamPolicy calls refused for a stale etag (injected 409s not included). */
  conflicts: number;
  faultsInjected: number;
  /** Every API request, answered or not. */
  requests: number;
  /** Requests answered with 4xx (auth, validation, not found, conflicts). */
  rejected: number;
}

/**
 * `/{service}/{version}/{resource}:getIamPolicy|setIamPolicy`. The service prefix is what `env()` and
 * `endpoint()` put in front (so one emulator serves any service); without it the path is as on Google.
 */
const IAM_PATH = /^\/(?:([a-z][a-z0-9]*)\/)?(v\d[a-z0-9]*)\/([^:]+\/[^/:]+):(getIamPolicy|setIamPolicy)$/;
const IMPORT_JOB_PATH = /^\/(?:migrationcenter\/)?v1alpha1\/(projects\/[^/]+\/locations\/[^/]+\/importJobs\/[^/:]+)$/;
const ADMIN_PREFIX = '/__emulator/';

/**
 * A local stand-in for the Google endpoints this library calls (network
 * security, database migration, Migration Center, and any service's
 * `:getIamPolicy`/`:setIamPolicy`), served over real HTTP so the real
 * google-auth-library client, the real runner and the real `terraform` talk
 * to it. For this project's tests and its users' (`cdktf-google-iam/lib/testing`).
 */
export class GoogleApiEmulator {
  /** The token `env()` hands out. The API accepts it, the tokens `auth` issued and those accepted through `auth` or `env()`. */
  public static readonly ACCESS_TOKEN = 'emulator-access-token';
  /** A token the API answers with 403 PERMISSION_DENIED. */
  public static readonly DENIED_TOKEN = 'emulator-denied-token';
  /** Services whose `getIamPolicy` is a POST on Google (Resource Manager, BigQuery, Spanner, ...). */
  public static readonly POST_GET_IAM_POLICY_SERVICES: readonly string[] = ['cloudresourcemanager', 'bigquery', 'spanner', 'bigtableadmin'];
  /** The services `env()` points here. */
  public static readonly SERVICES: readonly string[] = ['networksecurity', 'datamigration', 'migrationcenter'];

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
  private readonly deniedTokens: ReadonlySet<string>;
  private readonly postGetIamPolicyServices: ReadonlySet<string>;
  private faults?: FaultInjector;
  /**
   * Called after a setIamPolicy is carried out, before it is answered (with the request's path): a test's way
   * to lose the answer of a write that took effect (throw an ApiError) or to hold it in flight (return a promise).
   */
  public afterWrite?: (path: string) => void | Promise<void>;
  private counters: EmulatorStats = emptyStats();

  private constructor(private readonly options: EmulatorOptions) {
    this.postGetIamPolicyServices = new Set(options.postGetIamPolicyServices ?? GoogleApiEmulator.POST_GET_IAM_POLICY_SERVICES);
    this.deniedTokens = new Set(options.deniedTokens ?? [GoogleApiEmulator.DENIED_TOKEN]);
    this.auth = new AuthEndpoints([GoogleApiEmulator.ACCESS_TOKEN], this.deniedTokens);
    this.setFaults(options.faults);
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
   * point the runner and the lookups here: for the three services of this library, plus `services`.
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

  /** Creates (or resets) an IAM-enabled resource, with no policy unless one is given. */
  public addResource(name: string, policy?: Policy): void {
    this.policies.add(name, policy);
  }

  /** Deletes an IAM-enabled resource: its policy calls then answer 404 NOT_FOUND. */
  public removeResource(name: string): void {
    this.policies.remove(name);
  }

  /** Adds an import job as the API returns it (wire JSON, `name` is its full resource name). */
  public addImportJob(job: Record<string, unknown>): void {
    this.importJobs.add(job);
  }

  /** The resource's current policy, as a version 3 read returns it. */
  public policy(name: string): Policy {
    return this.policies.current(name);
  }

  /**
   * Every accepted setIamPolicy since the start (or `clearWrites()`), oldest first: the policy each
   * write left behind, as a version 3 read returns it. Restrict to one resource with `name`.
   */
  public writes(name?: string): PolicyWrite[] {
    return this.policies.writes(name);
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
      const apiError = error instanceof ApiError ? error : new ApiError(500, 'INTERNAL', String((error as Error)?.message ?? error));
      status = apiError.code;
      if (status >= 400 && status < 500) this.counters.rejected++;
      if (apiError.status === 'ABORTED' && !apiError.message.includes('injected')) this.counters.conflicts++;
      send(res, status, apiError.body());
    }
    this.log(req, path, String(status));
  }

  private route(method: string, path: string): { method: EmulatedMethod; answer: (query: URLSearchParams, body: unknown) => unknown } {
    const iam = IAM_PATH.exec(path);
    if (iam) {
      const [, service, , resource, verb] = iam;
      const getVerb = service && this.postGetIamPolicyServices.has(service) ? 'POST' : 'GET';
      if (verb === 'getIamPolicy' && method === getVerb) {
        return {
          method: 'getIamPolicy',
          answer: (query, body) => this.policies.get(resource, getVerb === 'GET' ? requestedVersion(query) : requestedVersionInBody(body)),
        };
      }
      if (verb === 'setIamPolicy' && method === 'POST') {
        return { method: 'setIamPolicy', answer: (_query, body) => this.policies.set(resource, body) };
      }
    }
    const job = IMPORT_JOB_PATH.exec(path);
    if (job && method === 'GET') {
      return { method: 'getImportJob', answer: (query) => this.importJobs.get(job[1], query.get('view')) };
    }
    throw notFound(`The requested URL ${method} ${path} was not found on this server.`);
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
      const input = parseJson(body) as { name?: string; policy?: Policy; job?: Record<string, unknown>; faults?: FaultOptions };
      if (action === 'resources' && method === 'POST' && input.name) this.addResource(input.name, input.policy);
      else if (action === 'remove-resource' && method === 'POST' && input.name) this.removeResource(input.name);
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
  return { getIamPolicy: 0, setIamPolicy: 0, getImportJob: 0, conflicts: 0, faultsInjected: 0, requests: 0, rejected: 0 };
}

function requestedVersion(query: URLSearchParams): number {
  const raw = query.get('options.requestedPolicyVersion');
  if (raw === null || raw === '') return 0;
  if (!/^-?\d+$/.test(raw)) throw invalidArgument(`Invalid value at 'options.requested_policy_version' (TYPE_INT32), "${raw}"`);
  return Number(raw);
}

function requestedVersionInBody(body: unknown): number {
  rejectUnknownFields(body, ['options'], 'request');
  const options = (body as { options?: unknown } | undefined)?.options;
  rejectUnknownFields(options, ['requestedPolicyVersion'], 'request.options');
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
