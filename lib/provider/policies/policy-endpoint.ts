import type { IamPolicyApi } from '../../api/iam-policy';
import type { IamPolicyEndpoint } from './engine';

/** The engine's view of one resource's policy, on the REST API. */
export function policyEndpoint(api: IamPolicyApi, resourceName: string): IamPolicyEndpoint {
  return {
    getIamPolicy: () => api.getIamPolicy(resourceName),
    setIamPolicy: (policy, options) => api.setIamPolicy(resourceName, policy, options),
  };
}
