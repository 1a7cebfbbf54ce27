import type { AuditConfig, Binding, Policy } from '../iam/types';
import type { GoogleRestClient } from './client';
import type { GoogleService } from './services';

/** Which API serves a resource's IAM policy (a grant resource type satisfies this). */
export interface IamPolicyService {
  readonly service: GoogleService;
  readonly apiVersion: string;
}

/** Fields of google.iam.v1.SetIamPolicyRequest.policy this library writes; audit configs are left out of the mask. */
export const SET_POLICY_UPDATE_MASK = 'bindings,etag,version';

/** `getIamPolicy` / `setIamPolicy` of one service (`{apiVersion}/{resource}:getIamPolicy`). */
export class IamPolicyApi {
  constructor(private readonly client: GoogleRestClient, private readonly target: IamPolicyService) {}

  /** Reads the policy; version 3 by default so conditional bindings come back intact. */
  public getIamPolicy(resource: string, requestedPolicyVersion = 3): Promise<Policy> {
    return this.client.request<Policy>({
      service: this.target.service,
      path: `${this.target.apiVersion}/${resource}:getIamPolicy`,
      query: { 'options.requestedPolicyVersion': requestedPolicyVersion },
    });
  }

  /** Writes the policy with the etag it carries; only the fields the API defines are sent. */
  public setIamPolicy(resource: string, policy: Policy): Promise<Policy> {
    return this.client.request<Policy>({
      service: this.target.service,
      path: `${this.target.apiVersion}/${resource}:setIamPolicy`,
      method: 'POST',
      body: { policy: wirePolicy(policy), updateMask: SET_POLICY_UPDATE_MASK },
    });
  }
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
  const condition = binding.condition && compact({
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
