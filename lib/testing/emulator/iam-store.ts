import { createHash, randomBytes } from 'crypto';
import { EMPTY_POLICY_ETAG, type AuditConfig, type Binding, type Policy } from '../../iam/types';
import { ApiError, invalidArgument, notFound, rejectUnknownFields } from './api-error';
import { checkConditionCompiles } from './condition-compile';
import { notSupportedMessage } from '../../iam/role-check';

export { EMPTY_POLICY_ETAG };
const VALID_VERSIONS = [0, 1, 3];
/** Versions of a policy kept besides those within the read lag: what `staleNextReads` can answer. */
const VERSIONS_KEPT = 8;
const MAX_PRINCIPALS = 1_500;
const MAX_GROUPS_AND_DOMAINS = 250;
const BASIC_ROLES = ['roles/owner', 'roles/editor', 'roles/viewer'];
const PUBLIC_PRINCIPALS = ['allUsers', 'allAuthenticatedUsers'];
const PRINCIPAL_PREFIXES = [
  'user:',
  'serviceAccount:',
  'group:',
  'domain:',
  'principal://',
  'principalSet://',
  'deleted:',
  'projectOwner:',
  'projectEditor:',
  'projectViewer:',
];

interface StoredPolicy {
  version: number;
  etag: string;
  bindings: readonly Binding[];
  auditConfigs: readonly AuditConfig[];
}

/** Which optional fields an API's SetIamPolicyRequest and Policy schemas have. */
export interface PolicyFields {
  readonly updateMask: boolean;
  readonly auditConfigs: boolean;
  /** Whether the request is the Policy itself (Cloud Storage's `PUT …/iam`), not `{ policy, updateMask? }`. @default false */
  readonly policyBody?: boolean;
}

/** Cloud Storage's Policy has these besides version, etag and bindings (storage v1's Discovery `Policy` schema). */
const STORAGE_POLICY_FIELDS = ['kind', 'resourceId'];

/**
 * How Google's eventual consistency shows for one resource created moments
 * ago: until `visibleAfterMs` have passed its IAM policy calls answer as if
 * it did not exist. Google's IAM API reference: "each read is eventually
 * consistent"; terraform-provider-google retries 404 on a resource created
 * moments ago (`transport/error_retry_predicates.go`,
 * `IsNotFoundRetryableError`) and 403 where "IAM API is eventually consistent
 * and returns 403 … instead of 404" (`IsForbiddenIamServiceAccountRetryableError`).
 */
export interface Visibility {
  /** How long after `add` the resource stays invisible to IAM. @default 0 */
  readonly visibleAfterMs?: number;
  /** What it answers until then: 404 NOT_FOUND, or 403 PERMISSION_DENIED. @default 404 */
  readonly hiddenAs?: 404 | 403;
}

/** One accepted setIamPolicy: the policy it left behind (as a version 3 read returns it). */
export interface PolicyWrite {
  /** 1, 2, 3, ... across all resources, in the order the writes were accepted. */
  readonly seq: number;
  readonly resource: string;
  readonly policy: Policy;
}

/** One resource: its policy's versions (the current one last) and when it becomes visible to IAM. */
interface StoredResource {
  readonly versions: { readonly at: number; readonly policy: StoredPolicy | undefined }[];
  readonly visibleAt: number;
  readonly hiddenAs: 404 | 403;
}

/**
 * IAM policies of emulated resources, with the rules Google enforces on
 * getIamPolicy / setIamPolicy (versions, etags, conditions, limits), and,
 * opt-in, Google's eventual consistency: resources and service accounts
 * that become visible to IAM only some time after they are created
 * (`Visibility`, `addServiceAccount`) and reads that lag writes
 * (`readLagMs`).
 */
export class IamPolicyStore {
  private readonly resources = new Map<string, StoredResource>();
  /** Service accounts created with a delay: lower-cased email → when IAM accepts them as members. */
  private readonly serviceAccounts = new Map<string, number>();
  private etagCounter = 0;
  private writeLog: PolicyWrite[] = [];
  private writeSeq = 0;
  /**
   * How far reads lag writes: a read answers the newest version at least this
   * old. Google's IAM API reference: "if you write data … then immediately
   * read that data, the read operation might return an older version of the
   * data"; writes stay sequentially consistent (an etag is checked against
   * the current version).
   */
  public readLagMs = 0;
  /** Reads still to answer an older version whatever the lag (`staleNextReads`), and how far back. */
  private staleReads?: { remaining: number; versionsBack: number; name?: string };

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The next `reads` reads (of `name`, or of any resource) answer the version
   * `versionsBack` before the current one (the oldest kept, if there are
   * fewer), as a replica that is behind answers: Google promises no order
   * between reads, so one may answer an older version than a read before it.
   */
  public staleNextReads(reads: number, versionsBack: number, name?: string): void {
    this.staleReads = { remaining: reads, versionsBack, name };
  }

  /** Creates (or resets) a resource; without a policy it has none, as a new resource does. */
  public add(name: string, policy?: Policy, visibility: Visibility = {}): void {
    const stored: StoredPolicy | undefined = policy
      ? {
          version: policy.version ?? 1,
          etag: policy.etag ?? this.newEtag(),
          bindings: clone(policy.bindings ?? []),
          auditConfigs: clone(policy.auditConfigs ?? []),
        }
      : undefined;
    const at = this.now();
    this.resources.set(name, {
      versions: [{ at, policy: stored }],
      visibleAt: at + (visibility.visibleAfterMs ?? 0),
      hiddenAs: visibility.hiddenAs ?? 404,
    });
  }

  /**
   * A service account that IAM refuses as a member for `refusedForMs` from
   * now, as Google does for one created moments ago: setIamPolicy answers 400
   * "Service account … does not exist" (terraform-provider-google
   * `transport/error_retry_predicates.go`, `IamServiceAccountNotFound`).
   * Service accounts never added are accepted, as before.
   */
  public addServiceAccount(email: string, refusedForMs = 0): void {
    this.serviceAccounts.set(email.toLowerCase(), this.now() + refusedForMs);
  }

  public remove(name: string): void {
    this.resources.delete(name);
  }

  public has(name: string): boolean {
    return this.resources.has(name);
  }

  /** The policy as a version 3 read returns it, without lag or visibility delays: the truth, for tests to inspect. */
  public current(name: string): Policy {
    return render(this.lookup(name).versions.at(-1)!.policy, 3);
  }

  /** getIamPolicy: the newest version at least `readLagMs` old (the oldest one kept, if none is that old). */
  public get(name: string, requestedVersion: number): Policy {
    const resource = this.visible(name);
    if (!VALID_VERSIONS.includes(requestedVersion)) {
      throw invalidArgument(`Invalid requested policy version ${requestedVersion}: must be 0, 1 or 3.`);
    }
    const stale = this.staleReads;
    if (stale && stale.remaining > 0 && (stale.name === undefined || stale.name === name)) {
      stale.remaining--;
      return render(resource.versions[Math.max(0, resource.versions.length - 1 - stale.versionsBack)].policy, requestedVersion);
    }
    const horizon = this.now() - this.readLagMs;
    const version = [...resource.versions].reverse().find((v) => v.at <= horizon) ?? resource.versions[0];
    return render(version.policy, requestedVersion);
  }

  /**
   * setIamPolicy with Google's checks; a stale etag is a 409 ABORTED and changes nothing. `fields` says
   * whether the API's schemas have `updateMask` and the Policy's `auditConfigs` (where not, sending one is a 400);
   * `acceptsRole` whether Google takes a role on this resource (else the 400 "Role … is not supported for this resource.").
   */
  public set(
    name: string,
    request: unknown,
    fields: PolicyFields = { updateMask: true, auditConfigs: true },
    acceptsRole: (role: string) => boolean = () => true,
  ): Policy {
    const resource = this.visible(name);
    const stored = resource.versions.at(-1)!.policy;
    if (!fields.policyBody) rejectUnknownFields(request, fields.updateMask ? ['policy', 'updateMask'] : ['policy'], '');
    const { policy, updateMask: maskText } = (fields.policyBody ? { policy: request ?? undefined } : (request ?? {})) as {
      policy?: Policy;
      updateMask?: unknown;
    };
    if (!policy) throw invalidArgument('Request contains an invalid argument: policy is required.');
    validatePolicyShape(policy, fields.auditConfigs, fields.policyBody ? STORAGE_POLICY_FIELDS : []);
    const mask = parseMask(maskText);

    const currentEtag = stored?.etag ?? EMPTY_POLICY_ETAG;
    if (policy.etag !== undefined && policy.etag !== currentEtag) {
      throw new ApiError(
        409,
        'ABORTED',
        'There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.',
      );
    }
    const next: StoredPolicy = {
      // The version goes with the bindings it formats (a conditional binding needs 3), mask or not.
      version: mask.has('version') || mask.has('bindings') ? (policy.version ?? 1) : (stored?.version ?? 1),
      etag: this.newEtag(),
      bindings: mask.has('bindings') ? normalizeBindings(policy.bindings ?? []) : (stored?.bindings ?? []),
      auditConfigs: mask.has('auditConfigs') ? clone(policy.auditConfigs ?? []) : (stored?.auditConfigs ?? []),
    };
    validateRules(next, acceptsRole);
    this.refuseHiddenServiceAccounts(next);
    const at = this.now();
    resource.versions.push({ at, policy: next });
    // Keep what a lagging read can still answer: every version written within the lag, and the one before
    // them, and the last few for reads that answer an older version (`staleNextReads`).
    let firstNeeded = Math.max(0, resource.versions.length - 1 - VERSIONS_KEPT);
    while (firstNeeded > 0 && resource.versions[firstNeeded].at > at - this.readLagMs) firstNeeded--;
    resource.versions.splice(0, firstNeeded);
    const written = this.current(name);
    this.writeLog.push({ seq: ++this.writeSeq, resource: name, policy: clone(written) });
    return written;
  }

  public writes(name?: string): PolicyWrite[] {
    return clone(this.writeLog.filter((write) => name === undefined || write.resource === name));
  }

  public clearWrites(): void {
    this.writeLog = [];
  }

  private lookup(name: string): StoredResource {
    const resource = this.resources.get(name);
    if (!resource) throw notFound(`Resource '${name}' was not found`);
    return resource;
  }

  /** The resource, if IAM sees it yet: until then, 404 or 403 as Google answers for one created moments ago. */
  private visible(name: string): StoredResource {
    const resource = this.lookup(name);
    if (this.now() >= resource.visibleAt) return resource;
    if (resource.hiddenAs === 403)
      throw new ApiError(403, 'PERMISSION_DENIED', `Permission denied on resource '${name}' (or it may not exist).`);
    throw notFound(`Resource '${name}' was not found`);
  }

  private refuseHiddenServiceAccounts(policy: StoredPolicy): void {
    const now = this.now();
    for (const binding of policy.bindings) {
      for (const member of binding.members ?? []) {
        const email = /^serviceAccount:(.+)$/.exec(member)?.[1];
        const acceptedAt = email === undefined ? undefined : this.serviceAccounts.get(email.toLowerCase());
        if (acceptedAt !== undefined && now < acceptedAt) throw invalidArgument(`Service account ${email} does not exist.`);
      }
    }
  }

  private newEtag(): string {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(++this.etagCounter);
    return Buffer.concat([Buffer.from([0x07]), counter, randomBytes(3)]).toString('base64');
  }
}

/** A stored version as a read of `requestedVersion` returns it. */
function render(stored: StoredPolicy | undefined, requestedVersion: number): Policy {
  if (!stored) return { etag: EMPTY_POLICY_ETAG };
  const conditional = stored.bindings.some((b) => b.condition);
  // A reader that asks for less than version 3 gets conditional roles mangled, as Google does.
  const bindings = conditional && requestedVersion < 3 ? stored.bindings.map(mangleConditional) : stored.bindings;
  return omitEmpty({
    version: conditional && requestedVersion < 3 ? 1 : stored.version,
    etag: stored.etag,
    bindings: clone(bindings),
    auditConfigs: clone(stored.auditConfigs),
  });
}

function parseMask(mask: unknown): Set<string> {
  // Google's default mask is "bindings, etag" (the version follows the bindings: a conditional one needs 3).
  if (mask === undefined || mask === '') return new Set(['bindings', 'etag', 'version']);
  if (typeof mask !== 'string') throw invalidArgument('updateMask must be a string');
  const fields = mask.split(',').map((f) => f.trim());
  for (const field of fields) {
    if (!['bindings', 'etag', 'version', 'auditConfigs'].includes(field)) throw invalidArgument(`Invalid update mask path "${field}".`);
  }
  return new Set(fields);
}

function validatePolicyShape(policy: Policy, auditConfigs: boolean, extraFields: readonly string[]): void {
  rejectUnknownFields(policy, ['version', 'etag', 'bindings', ...(auditConfigs ? ['auditConfigs'] : []), ...extraFields], 'policy');
  (policy.bindings ?? []).forEach((binding, i) => {
    rejectUnknownFields(binding, ['role', 'members', 'condition'], `policy.bindings[${i}]`);
    rejectUnknownFields(binding.condition, ['expression', 'title', 'description', 'location'], `policy.bindings[${i}].condition`);
  });
  (policy.auditConfigs ?? []).forEach((config, i) => {
    rejectUnknownFields(config, ['service', 'auditLogConfigs'], `policy.auditConfigs[${i}]`);
    (config.auditLogConfigs ?? []).forEach((c, j) =>
      rejectUnknownFields(c, ['logType', 'exemptedMembers'], `policy.auditConfigs[${i}].auditLogConfigs[${j}]`),
    );
  });
  if (policy.version !== undefined && !VALID_VERSIONS.includes(policy.version)) {
    throw invalidArgument(`Invalid policy version ${policy.version}: must be 0, 1 or 3.`);
  }
}

function validateRules(policy: StoredPolicy, acceptsRole: (role: string) => boolean): void {
  const conditional = policy.bindings.some((b) => b.condition);
  if (conditional && policy.version < 3) {
    throw invalidArgument('Policies with conditional role bindings must be version 3.');
  }
  const principals: string[] = [];
  for (const binding of policy.bindings) {
    if (typeof binding.role !== 'string' || !/^(roles\/[\w.]+|(projects|organizations)\/[^/]+\/roles\/[\w.]+)$/.test(binding.role)) {
      throw invalidArgument(`Role ${JSON.stringify(binding.role)} is not supported for this resource.`);
    }
    if (binding.role.includes('_withcond_')) {
      throw invalidArgument(
        `Role ${binding.role} is a version 1 view of a conditional binding; read the policy with version 3 and write that.`,
      );
    }
    if (!acceptsRole(binding.role)) throw invalidArgument(notSupportedMessage(binding.role));
    for (const member of binding.members ?? []) {
      if (!PUBLIC_PRINCIPALS.includes(member) && !PRINCIPAL_PREFIXES.some((p) => member.startsWith(p) && member.length > p.length)) {
        throw invalidArgument(`Invalid principal: ${JSON.stringify(member)}.`);
      }
      principals.push(member);
    }
    if (binding.condition) {
      const { expression, title } = binding.condition;
      if (typeof expression !== 'string' || !expression || !title) throw invalidArgument('A condition needs an expression and a title.');
      if (BASIC_ROLES.includes(binding.role)) throw invalidArgument(`Conditions are not supported for basic role ${binding.role}.`);
      if ((binding.members ?? []).some((m) => PUBLIC_PRINCIPALS.includes(m)))
        throw invalidArgument('Conditions are not supported for allUsers and allAuthenticatedUsers.');
      checkConditionCompiles(binding.role, binding.condition);
    }
  }
  for (const config of policy.auditConfigs) {
    for (const logConfig of config.auditLogConfigs ?? []) principals.push(...(logConfig.exemptedMembers ?? []));
  }
  if (principals.length > MAX_PRINCIPALS) {
    throw invalidArgument(
      `The number of members in the policy (${principals.length.toLocaleString('en-US')}) is larger than the maximum allowed size ${MAX_PRINCIPALS.toLocaleString('en-US')}.`,
    );
  }
  const groups = principals.filter((m) => m.startsWith('group:') || m.startsWith('domain:')).length;
  if (groups > MAX_GROUPS_AND_DOMAINS) {
    throw invalidArgument(
      `The number of groups and domains in the policy (${groups}) is larger than the maximum allowed ${MAX_GROUPS_AND_DOMAINS}.`,
    );
  }
}

/** Google drops bindings without members and duplicate members within a binding. */
function normalizeBindings(bindings: readonly Binding[]): Binding[] {
  return clone(bindings)
    .map((b) => ({ ...b, members: [...new Set(b.members ?? [])] }))
    .filter((b) => b.members.length > 0);
}

function mangleConditional(binding: Binding): Binding {
  if (!binding.condition) return binding;
  const hash = createHash('sha1').update(JSON.stringify(binding.condition)).digest('hex').slice(0, 20);
  const { condition: _dropped, ...rest } = binding;
  return { ...rest, role: `${binding.role}_withcond_${hash}` };
}

function omitEmpty(policy: Policy): Policy {
  return Object.fromEntries(Object.entries(policy).filter(([, v]) => !(Array.isArray(v) && v.length === 0))) as Policy;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
