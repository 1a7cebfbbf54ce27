import type { Grant } from '../iam/grant';
import { grantKey } from '../iam/identity';

/** Whether one of `twins` grants exactly what `grant` grants. */
export function declaredByTwin(grant: Grant, twins: readonly Grant[]): boolean {
  const key = grantKey(grant);
  return twins.some((twin) => grantKey(twin) === key);
}
