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
  const state = JSON.parse(pulled.stdout) as { resources?: StateResource[] };
  const standing = appliedBy === undefined ? undefined : new Set(standingInstances(state, appliedBy).map(([key]) => key));
  for (const [key, instance] of standingInstances(state, address)) {
    if (standing && !standing.has(key)) continue;
    const grant = instance.attributes?.triggers_replace?.value;
    const input = instance.attributes?.input?.value;
    if (typeof grant === 'string') instances.set(key, typeof input === 'string' ? { grant, input } : { grant });
  }
  return instances;
}

/** The untainted instances of the root module's managed resource at `address`, by key. */
function standingInstances(state: { resources?: StateResource[] }, address: string): Array<[string, StateInstance]> {
  const [type, name] = address.split('.');
  return (state.resources ?? [])
    .filter((r) => r.mode === 'managed' && !r.module && r.type === type && r.name === name)
    .flatMap((r) => r.instances ?? [])
    .filter((i): i is StateInstance & { index_key: string } => i.status !== 'tainted' && typeof i.index_key === 'string')
    .map((i) => [i.index_key, i]);
}

/** One instance as the last apply left it. */
export interface AppliedInstance {
  /** Its `triggers_replace`: for a grant, the grant's JSON. */
  readonly grant: string;
  /** Its `input`: for a grant, the label (and any twins). */
  readonly input?: string;
}

interface StateResource {
  readonly mode?: string;
  readonly module?: string;
  readonly type?: string;
  readonly name?: string;
  readonly instances?: StateInstance[];
}

interface StateInstance {
  readonly index_key?: unknown;
  readonly status?: string;
  readonly attributes?: { readonly triggers_replace?: { readonly value?: unknown }; readonly input?: { readonly value?: unknown } };
}
