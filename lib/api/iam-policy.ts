import type { AuditConfig, Binding, Policy } from '../iam/types';
import type { GoogleRestClient } from './client';
import { GoogleApiError } from './errors';
import { policyShapeProblem } from './policy-shape';
import { validateServiceName, type GoogleService } from './services';

/** Which API serves a resource's IAM policy (a grant resource type satisfies this). */
export interface IamPolicyService {
  /** The API, e.g. `networksecurity`, `secretmanager`, `cloudresourcemanager` (lowercase letters and digits). */
  readonly service: GoogleService;
  /** e.g. `v1`, `v1beta1`, `v2alpha`, `v3`. */
  readonly apiVersion: string;
  /**
   * How the API exposes getIamPolicy: `GET …:getIamPolicy?options.requestedPolicyVersion=3` (most APIs) or
   * `POST …:getIamPolicy` with `{"options": {"requestedPolicyVersion": 3}}` (Resource Manager, BigQuery, Spanner, …).
   * @default 'GET'
   */
  readonly getIamPolicyMethod?: 'GET' | 'POST';
}

/** What a setIamPolicy replaces besides bindings, etag and version. */
export interface SetIamPolicyOptions {
  /** Also replace the audit configs (in the update mask): only a policy grant that declares them does. */
  readonly updateAuditConfigs?: boolean;
}

/** Fields of google.iam.v1.SetIamPolicyRequest.policy this library writes; audit configs are left out of the mask unless asked for. */
export const SET_POLICY_UPDATE_MASK = 'bindings,etag,version';

const API_VERSION = /^v\d+(p\d+)?((alpha|beta)\d*)?$/;
// A resource name goes into the URL's path: no query, fragment, escapes, or dot segments that would leave it.
const UNSAFE_RESOURCE = /[?#%\\\s\u0000-\u001f\u007f]|(^|\/)\.{1,2}(\/|$)|^\/|\/$|\/\//;

/**
 * `getIamPolicy` / `setIamPolicy` of one service (`{apiVersion}/{resource}:getIamPolicy`).
 * A read is checked against google.iam.v1.Policy, and a write needs an etag:
 * a policy is never written blind, nor built from an answer that is not one.
 */
export class IamPolicyApi {
  private readonly getMethod: 'GET' | 'POST';

  constructor(
    private readonly client: GoogleRestClient,
    private readonly target: IamPolicyService,
  ) {
    validateServiceName(target.service);
    if (typeof target.apiVersion !== 'string' || !API_VERSION.test(target.apiVersion)) {
      throw new Error(
        `apiVersion: expected a Google API version such as v1, v1beta1 or v2alpha (got ${JSON.stringify(target.apiVersion)})`,
      );
    }
    if (target.getIamPolicyMethod !== undefined && target.getIamPolicyMethod !== 'GET' && target.getIamPolicyMethod !== 'POST') {
      throw new Error(`getIamPolicyMethod: expected GET or POST (got ${JSON.stringify(target.getIamPolicyMethod)})`);
    }
    this.getMethod = target.getIamPolicyMethod ?? 'GET';
  }

  /** Reads the policy; version 3 by default so conditional bindings come back intact. */
  public async getIamPolicy(resource: string, requestedPolicyVersion = 3): Promise<Policy> {
    const path = this.path(resource, 'getIamPolicy');
    const answer =
      this.getMethod === 'POST'
        ? await this.client.request<unknown>({
            service: this.target.service,
            path,
            method: 'POST',
            body: { options: { requestedPolicyVersion } },
          })
        : await this.client.request<unknown>({
            service: this.target.service,
            path,
            query: { 'options.requestedPolicyVersion': requestedPolicyVersion },
          });
    return checkedPolicy(answer, `${this.getMethod} ${path}`);
  }

  /** Writes the policy with the etag it carries; only the fields the API defines are sent. */
  public async setIamPolicy(resource: string, policy: Policy, options: SetIamPolicyOptions = {}): Promise<Policy> {
    const path = this.path(resource, 'setIamPolicy');
    if (typeof policy.etag !== 'string' || policy.etag === '') {
      throw new GoogleApiError(
        0,
        'FAILED_PRECONDITION',
        `refusing to write the IAM policy of ${resource} without an etag: such a write replaces whatever policy is there; read it first and write it back with its etag`,
        `POST ${path}`,
        false,
      );
    }
    const answer = await this.client.request<unknown>({
      service: this.target.service,
      path,
      method: 'POST',
      body: {
        policy: wirePolicy(policy),
        updateMask: options.updateAuditConfigs ? `${SET_POLICY_UPDATE_MASK},auditConfigs` : SET_POLICY_UPDATE_MASK,
      },
    });
    return checkedPolicy(answer, `POST ${path}`);
  }

  private path(resource: string, verb: string): string {
    if (typeof resource !== 'string' || resource === '' || UNSAFE_RESOURCE.test(resource)) {
      throw new Error(`resource: expected a resource name such as projects/p/locations/l/things/t (got ${JSON.stringify(resource)})`);
    }
    return `${this.target.apiVersion}/${resource}:${verb}`;
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
