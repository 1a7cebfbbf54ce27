/** Whether two cty values are equal, as Terraform compares them: a set's elements in any order. */
import { Unknown, type CtyObject, type CtyType, type CtyValue, type ObjectAttributes } from '../framework/cty';

/** Whether `a` and `b`, values of `type`, are equal. */
export function sameValue(a: CtyValue, b: CtyValue, type: CtyType): boolean {
  return canonical(a, type) === canonical(b, type);
}

/** A string that is the same for equal values: sets sorted, map keys sorted, unknowns marked. */
function canonical(value: CtyValue, type: CtyType): string {
  if (value === null) return 'null';
  if (value instanceof Unknown) return '?';
  if (typeof type === 'string') return JSON.stringify(value);
  const [kind, inner] = type;
  if (kind === 'list' || kind === 'set') {
    const elements = (value as CtyValue[]).map((element) => canonical(element, inner));
    if (kind === 'set') elements.sort();
    return `[${elements.join(',')}]`;
  }
  if (kind === 'map') {
    const map = value as Map<string, CtyValue>;
    return `{${[...map.keys()]
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(map.get(key) ?? null, inner)}`)
      .join(',')}}`;
  }
  const attributes = inner as ObjectAttributes;
  const object = value as CtyObject;
  return `{${Object.keys(attributes)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(object[key] ?? null, attributes[key])}`)
    .join(',')}}`;
}
