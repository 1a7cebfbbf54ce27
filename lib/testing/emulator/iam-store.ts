import { createHash, randomBytes } from 'crypto';
import type { AuditConfig, Binding, Policy } from '../../iam/types';
import { ApiError, invalidArgument, notFound, rejectUnknownFields } from './api-error';
import { checkConditionCompiles } from './condition-compile';

/** Google's etag of a resource that never had a policy. */
export const EMPTY_POLICY_ETAG = 'ACAB';
const VALID_VERSIONS = [0, 1, 3];
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
}

/** One accepted setIamPolicy: the policy it left behind (as a version 3 read returns it). */
export interface PolicyWrite {
  /** 1, 2, 3, ... across all resources, in the order the writes were accepted. */
  readonly seq: number;
  readonly resource: string;
  readonly policy: Policy;
}

/**
 * IAM policies of emulated resources, with the rules Google enforces on
 * getIamPolicy / setIamPolicy (versions, etags, conditions, limits).
 */
export class IamPolicyStore {
  private readonly policies = new Map<string, StoredPolicy | undefined>();
  private etagCounter = 0;
  private writeLog: PolicyWrite[] = [];
  private writeSeq = 0;

  /** Creates (or resets) a resource; without a policy it has none, as a new resource does. */
  public add(name: string, policy?: Policy): void {
    if (!policy) {
      this.policies.set(name, undefined);
      return;
    }
    this.policies.set(name, {
      version: policy.version ?? 1,
      etag: policy.etag ?? this.newEtag(),
      bindings: clone(policy.bindings ?? []),
      auditConfigs: clone(policy.auditConfigs ?? []),
    });
  }

  public remove(name: string): void {
    this.policies.delete(name);
  }

  public has(name: string): boolean {
    return this.policies.has(name);
  }

  /** The policy as a version 3 read returns it. */
  public current(name: string): Policy {
    return this.get(name, 3);
  }

  public get(name: string, requestedVersion: number): Policy {
    const stored = this.lookup(name);
    if (!VALID_VERSIONS.includes(requestedVersion)) {
      throw invalidArgument(`Invalid requested policy version ${requestedVersion}: must be 0, 1 or 3.`);
    }
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

  /**
   * setIamPolicy with Google's checks; a stale etag is a 409 ABORTED and changes nothing. `fields` says
   * whether the API's schemas have `updateMask` and the Policy's `auditConfigs` (where not, sending one is a 400).
   */
  public set(name: string, request: unknown, fields: PolicyFields = { updateMask: true, auditConfigs: true }): Policy {
    const stored = this.lookup(name);
    rejectUnknownFields(request, fields.updateMask ? ['policy', 'updateMask'] : ['policy'], '');
    const { policy, updateMask: maskText } = (request ?? {}) as { policy?: Policy; updateMask?: unknown };
    if (!policy) throw invalidArgument('Request contains an invalid argument: policy is required.');
    validatePolicyShape(policy, fields.auditConfigs);
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
    validateRules(next);
    this.policies.set(name, next);
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

  private lookup(name: string): StoredPolicy | undefined {
    if (!this.policies.has(name)) throw notFound(`Resource '${name}' was not found`);
    return this.policies.get(name);
  }

  private newEtag(): string {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(++this.etagCounter);
    return Buffer.concat([Buffer.from([0x07]), counter, randomBytes(3)]).toString('base64');
  }
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

function validatePolicyShape(policy: Policy, auditConfigs: boolean): void {
  rejectUnknownFields(policy, auditConfigs ? ['version', 'etag', 'bindings', 'auditConfigs'] : ['version', 'etag', 'bindings'], 'policy');
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

function validateRules(policy: StoredPolicy): void {
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
