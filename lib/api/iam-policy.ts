import type { AuditConfig, Binding, Policy } from '../iam/types';
import type { GoogleRestClient } from './client';
import { GoogleApiError } from './errors';
import { policyShapeProblem } from './policy-shape';
import { GoogleIamApis, USUAL_IAM_PATHS, type GetIamPolicyShape, type IamApiPaths } from './iam-apis';
import { validateApiVersion, validateGetIamPolicyMethod, validateResourceName, validateServiceName } from './resource-validation';
import type { GoogleService } from './services';

/** Which API serves a resource's IAM policy (a grant resource type satisfies this). */
export interface IamPolicyService {
  /** The API, e.g. `networksecurity`, `secretmanager`, `cloudresourcemanager` (lowercase letters and digits). */
  readonly service: GoogleService;
  /** e.g. `v1`, `v1beta1`, `v2alpha`, `v3`. */
  readonly apiVersion: string;
  /**
   * How the API exposes getIamPolicy, overriding Google's published API (GoogleIamApis).
   * @default - the shape Google publishes for the resource's collection
   */
  readonly getIamPolicyMethod?: GetIamPolicyShape;
}

/** One resource's IAM policy: the resource's name and the API that serves its policy. */
export interface IamPolicyTarget extends IamPolicyService {
  /** The resource's full name, e.g. `projects/p/locations/global/authorizationPolicies/ap`. */
  readonly name: string;
}

/** The two calls on one resource's policy: all the read-modify-write engine needs (IamPolicyApi, or a test's policy in memory). */
export interface IamPolicyEndpoint {
  getIamPolicy(): Promise<Policy>;
  setIamPolicy(policy: Policy, options?: SetIamPolicyOptions): Promise<Policy>;
}

/** What a setIamPolicy replaces besides bindings and etag. */
export interface SetIamPolicyOptions {
  /** Also replace the audit configs (in the update mask): only a policy grant that declares them does. */
  readonly updateAuditConfigs?: boolean;
}

/**
 * The update mask of a write that replaces audit configs, as the Terraform
 * provider sends it. Without a mask Google applies `bindings, etag`, so a
 * write that leaves audit configs alone sends none (19 APIs' schemas have no
 * `updateMask` field, and Google rejects a field its schema lacks).
 */
export const AUDIT_CONFIGS_UPDATE_MASK = 'bindings,etag,auditConfigs';

/**
 * `getIamPolicy` / `setIamPolicy` of one resource, each request exactly as
 * Google's published schema for the resource's collection describes it
 * (GoogleIamApis): the path (`{version}/{name}:getIamPolicy` for most,
 * `compute/{version}/{name}/getIamPolicy`, `storage/v1/{name}/iam`, ...), the
 * verb, where the policy version goes, the body of the write (`{ policy,
 * updateMask? }`, or the Policy itself for Cloud Storage), and `updateMask`
 * only where the schema has it and audit configs change. A read is checked
 * against google.iam.v1.Policy, and a write needs an etag: a policy is never
 * written blind, nor built from an answer that is not one.
 */
export class IamPolicyApi implements IamPolicyEndpoint {
  constructor(
    private readonly client: GoogleRestClient,
    private readonly target: IamPolicyTarget,
  ) {
    validateServiceName(target.service);
    validateApiVersion(target.apiVersion);
    if (target.getIamPolicyMethod !== undefined) validateGetIamPolicyMethod(target.getIamPolicyMethod);
  }

  /** Reads the policy; version 3 by default so conditional bindings come back intact. */
  public async getIamPolicy(requestedPolicyVersion = 3): Promise<Policy> {
    const paths = this.paths();
    const path = this.path(paths, paths.getSuffix);
    const { shape, versioned } = this.readShape(path);
    const method = shape === 'GET' ? 'GET' : 'POST';
    const answer = await this.client.request<unknown>({
      service: this.target.service,
      path,
      ...(method === 'POST' ? { method } : {}),
      ...(shape === 'POST'
        ? { body: { options: { requestedPolicyVersion } } }
        : versioned
          ? { query: { [paths.versionParameter]: requestedPolicyVersion } }
          : {}),
    });
    return checkedPolicy(answer, `${method} ${path}`);
  }

  /** Writes the policy with the etag it carries; only the fields the API's schema defines are sent. */
  public async setIamPolicy(policy: Policy, options: SetIamPolicyOptions = {}): Promise<Policy> {
    const resource = this.target.name;
    const paths = this.paths();
    const path = this.path(paths, paths.setSuffix);
    const context = `${paths.setVerb} ${path}`;
    if (typeof policy.etag !== 'string' || policy.etag === '') {
      throw new GoogleApiError(
        0,
        'FAILED_PRECONDITION',
        `refusing to write the IAM policy of ${resource} without an etag: such a write replaces whatever policy is there; read it first and write it back with its etag`,
        context,
        'permanent',
      );
    }
    const api = GoogleIamApis.apiVersion(this.target.service, this.target.apiVersion);
    if (GoogleIamApis.collection(this.target.service, this.target.apiVersion, resource)?.writable === false) {
      throw new GoogleApiError(
        400,
        'INVALID_ARGUMENT',
        `Google publishes getIamPolicy but no setIamPolicy for ${resource} (${this.target.service} ${this.target.apiVersion}, ${GoogleIamApis.SOURCE}): its policy can be read, not written; nothing was written`,
        context,
        'permanent',
      );
    }
    if (options.updateAuditConfigs && !(api?.updateMask && api.auditConfigs)) {
      throw new GoogleApiError(
        400,
        'INVALID_ARGUMENT',
        `cannot replace the audit configs of ${resource}: in Google's published API (${GoogleIamApis.SOURCE}) ${this.target.service} ${this.target.apiVersion}'s ` +
          `setIamPolicy ${api?.updateMask ? 'takes a Policy without auditConfigs' : 'has no updateMask, and without one Google updates only bindings and etag'}; nothing was written`,
        context,
        'permanent',
      );
    }
    // Where the API's Policy has no auditConfigs, the field would be a 400 (Google never returns any there).
    const written = wirePolicy(api && !api.auditConfigs ? { ...policy, auditConfigs: undefined } : policy);
    const answer = await this.client.request<unknown>({
      service: this.target.service,
      path,
      method: paths.setVerb as 'POST' | 'PUT',
      body: paths.policyBody
        ? written
        : { policy: written, ...(options.updateAuditConfigs ? { updateMask: AUDIT_CONFIGS_UPDATE_MASK } : {}) },
    });
    return checkedPolicy(answer, context);
  }

  /** Where the API version serves IAM; the usual paths for one the table does not have (a method given explicitly). */
  private paths(): IamApiPaths {
    return GoogleIamApis.apiVersion(this.target.service, this.target.apiVersion)?.paths ?? USUAL_IAM_PATHS;
  }

  /** The explicit method, else the shape Google publishes for the collection `resource` belongs to. */
  private readShape(path: string): { shape: GetIamPolicyShape; versioned: boolean } {
    if (this.target.getIamPolicyMethod) return { shape: this.target.getIamPolicyMethod, versioned: true };
    const resource = this.target.name;
    const collection = GoogleIamApis.collection(this.target.service, this.target.apiVersion, resource);
    if (collection) return collection;
    throw new GoogleApiError(
      400,
      'INVALID_ARGUMENT',
      `${resource} is not in any IAM-enabled collection Google publishes for ${this.target.service} ${this.target.apiVersion} (${GoogleIamApis.SOURCE}), ` +
        "so how its getIamPolicy is called is unknown; check the name, or set the resource's policyReadMethod; nothing was sent",
      `getIamPolicy ${path}`,
      'permanent',
    );
  }

  /** `{servicePath}{version}/{name}{suffix}`, the name as the API's paths take it (a bucket's `b/{bucket}`). */
  private path(paths: IamApiPaths, suffix: string): string {
    // The name goes into the URL's path: nothing that would change the request.
    validateResourceName(this.target.name, 'resource');
    const name = GoogleIamApis.pathName(this.target.service, this.target.name);
    return `${paths.servicePath}${this.target.apiVersion}/${name}${suffix}`;
  }
}

function checkedPolicy(answer: unknown, context: string): Policy {
  const problem = policyShapeProblem(answer);
  if (problem) {
    throw GoogleApiError.malformed(200, `the answer is not a google.iam.v1.Policy (${problem}); nothing was built on it`, context);
  }
  return answer as Policy;
}

/**
 * The policy reduced to google.iam.v1.Policy's fields: a field this library
 * read but the API does not define would make the write fail with 400.
 */
export function wirePolicy(policy: Policy): Policy {
  return compact({
    version: policy.version,
    etag: policy.etag,
    bindings: policy.bindings?.map(wireBinding),
    auditConfigs: policy.auditConfigs?.map(wireAuditConfig),
  });
}

function wireBinding(binding: Binding): Binding {
  const condition =
    binding.condition &&
    compact({
      expression: binding.condition.expression,
      title: binding.condition.title,
      description: binding.condition.description,
      location: binding.condition.location,
    });
  return compact({ role: binding.role, members: binding.members, condition });
}

function wireAuditConfig(config: AuditConfig): AuditConfig {
  return compact({
    service: config.service,
    auditLogConfigs: config.auditLogConfigs?.map((c) => compact({ logType: c.logType, exemptedMembers: c.exemptedMembers })),
  });
}

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
