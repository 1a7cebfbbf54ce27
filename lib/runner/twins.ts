import type { Grant } from '../iam/grant';
import { grantKey } from '../iam/identity';
import { TWINS_SEPARATOR } from '../contract/runner-env';
import { parseGrant } from './grant-input';

/** The label and the twins in an instance's `input`. */
export function splitLabel(input: string | undefined): { label?: string; twins: Grant[] } {
  if (input === undefined) return { twins: [] };
  const at = input.indexOf(TWINS_SEPARATOR);
  if (at < 0) return { label: input, twins: [] };
  let twins: Grant[] = [];
  try {
    const listed = JSON.parse(input.slice(at + TWINS_SEPARATOR.length)) as unknown;
    twins = Array.isArray(listed) ? listed.map((twin) => parseGrant(JSON.stringify(twin))) : [];
  } catch {
    twins = []; // unreadable: no twin is trusted to keep the grant
  }
  return { label: input.slice(0, at), twins };
}

/** Whether one of `twins` grants exactly what `grant` grants. */
export function declaredByTwin(grant: Grant, twins: readonly Grant[]): boolean {
  const key = grantKey(grant);
  return twins.some((twin) => grantKey(twin) === key);
}
