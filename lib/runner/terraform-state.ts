import { spawnSync } from 'child_process';

/** How long `terraform state pull` may take before the drift check gives up on it. */
const STATE_PULL_TIMEOUT_MS = 60_000;

/**
 * The instances of one resource in the Terraform state of the working
 * directory, as the last apply left them: instance key → its
 * `triggers_replace` (for the grants resource, the grant's JSON, Terraform
 * values resolved) and its `input` (the grant's label). Tainted instances,
 * which the next apply replaces, are left out, and so are those whose
 * instance in `appliedBy` (the resource that applies each grant) is missing
 * or tainted: their apply is pending.
 *
 * Read with `terraform state pull` (any backend; it takes no lock, so it works
 * while `terraform plan` holds one), by the binary cdktf-cli names in
 * `TERRAFORM_BINARY_NAME`, else `terraform` on the PATH. Extra arguments a
 * user set for other commands (`TF_CLI_ARGS*`) are not passed on.
 */
export function appliedInstances(address: string, env: NodeJS.ProcessEnv, appliedBy?: string): Map<string, AppliedInstance> {
  const binary = env.TERRAFORM_BINARY_NAME || 'terraform';
  const childEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('TF_CLI_ARGS')));
  const pulled = spawnSync(binary, ['state', 'pull'], {
    env: childEnv,
    encoding: 'utf8',
    timeout: STATE_PULL_TIMEOUT_MS,
    maxBuffer: 1 << 30,
  });
  if (pulled.error || pulled.status !== 0) {
    const why = pulled.error?.message ?? (pulled.stderr || pulled.stdout).trim().slice(0, 500);
    throw new Error(`${binary} state pull failed: ${why}`);
  }
  const instances = new Map<string, AppliedInstance>();
  if (pulled.stdout.trim() === '') return instances; // no state yet
  const state: unknown = JSON.parse(pulled.stdout);
  const standing = appliedBy === undefined ? undefined : new Set(standingInstances(state, appliedBy).map(([key]) => key));
  for (const [key, instance] of standingInstances(state, address)) {
    if (standing && !standing.has(key)) continue;
    const attributes = field(instance, 'attributes');
    const grant = field(field(attributes, 'triggers_replace'), 'value');
    const input = field(field(attributes, 'input'), 'value');
    if (typeof grant === 'string') instances.set(key, typeof input === 'string' ? { grant, input } : { grant });
  }
  return instances;
}

/** One instance as the last apply left it. */
export interface AppliedInstance {
  /** Its `triggers_replace`: for a grant, the grant's JSON. */
  readonly grant: string;
  /** Its `input`: for a grant, the label (and any twins). */
  readonly input?: string;
}

/** The untainted instances of the root module's managed resource at `address`, by key. */
function standingInstances(state: unknown, address: string): Array<[string, unknown]> {
  const [type, name] = address.split('.');
  const instances: Array<[string, unknown]> = [];
  for (const resource of listAt(state, 'resources')) {
    if (field(resource, 'mode') !== 'managed' || field(resource, 'module') !== undefined) continue;
    if (field(resource, 'type') !== type || field(resource, 'name') !== name) continue;
    for (const instance of listAt(resource, 'instances')) {
      const key = field(instance, 'index_key');
      if (field(instance, 'status') !== 'tainted' && typeof key === 'string') instances.push([key, instance]);
    }
  }
  return instances;
}

/** `value[name]` when `value` is an object, else undefined: the state is read without trusting its shape. */
function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

function listAt(value: unknown, name: string): readonly unknown[] {
  const list = field(value, name);
  return Array.isArray(list) ? list : [];
}
