/**
 * Where a getIamPolicy / setIamPolicy answer departs from google.iam.v1.Policy
 * as this library relies on it, or undefined when it does not. Only the
 * fields this library reads or writes back are checked; any other field is
 * left alone (and never written, see wirePolicy). Values are never quoted:
 * the answer cannot be trusted.
 */
export function policyShapeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `the answer is ${kind(value)}, not an object`;
  if (typeof value.etag !== 'string' || value.etag === '') return `etag is ${kind(value.etag)}, not a non-empty string`;
  if (value.version !== undefined && !Number.isInteger(value.version)) return `version is ${kind(value.version)}, not an integer`;
  return listProblem(value.bindings, 'bindings', bindingProblem) ?? listProblem(value.auditConfigs, 'auditConfigs', auditConfigProblem);
}

function bindingProblem(binding: Record<string, unknown>, at: string): string | undefined {
  if (typeof binding.role !== 'string' || binding.role === '') return `${at}.role is ${kind(binding.role)}, not a non-empty string`;
  const members = stringsProblem(binding.members, `${at}.members`);
  if (members) return members;
  const condition = binding.condition;
  if (condition === undefined) return undefined;
  if (!isObject(condition)) return `${at}.condition is ${kind(condition)}, not an object`;
  if (typeof condition.expression !== 'string') return `${at}.condition.expression is ${kind(condition.expression)}, not a string`;
  for (const field of ['title', 'description', 'location']) {
    if (condition[field] !== undefined && typeof condition[field] !== 'string')
      return `${at}.condition.${field} is ${kind(condition[field])}, not a string`;
  }
  return undefined;
}

function auditConfigProblem(config: Record<string, unknown>, at: string): string | undefined {
  if (typeof config.service !== 'string') return `${at}.service is ${kind(config.service)}, not a string`;
  return listProblem(config.auditLogConfigs, `${at}.auditLogConfigs`, (logConfig, where) => {
    if (logConfig.logType !== undefined && typeof logConfig.logType !== 'string')
      return `${where}.logType is ${kind(logConfig.logType)}, not a string`;
    return stringsProblem(logConfig.exemptedMembers, `${where}.exemptedMembers`);
  });
}

/** An absent list is fine; a present one must hold objects that pass `check`. */
function listProblem(
  list: unknown,
  at: string,
  check: (item: Record<string, unknown>, at: string) => string | undefined,
): string | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return `${at} is ${kind(list)}, not an array`;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const problem = isObject(item) ? check(item, `${at}[${i}]`) : `${at}[${i}] is ${kind(item)}, not an object`;
    if (problem) return problem;
  }
  return undefined;
}

function stringsProblem(list: unknown, at: string): string | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return `${at} is ${kind(list)}, not an array of strings`;
  const index = list.findIndex((item) => typeof item !== 'string');
  return index < 0 ? undefined : `${at}[${index}] is ${kind(list[index])}, not a string`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return `a ${typeof value}`;
}
