import { grantKey, type Grant } from '../iam/grant';

/** Whether one of `twins` grants exactly what `grant` grants. */
export function declaredByTwin(grant: Grant, twins: readonly Grant[]): boolean {
  const key = grantKey(grant);
  return twins.some((twin) => grantKey(twin) === key);
}
