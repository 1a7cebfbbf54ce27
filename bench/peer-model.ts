/**
 * The peer's flow, replayed: a MODEL of how terraform-provider-google applies
 * `google_*_iam_member` resources (not the provider itself, which cannot be
 * downloaded here), driving the same emulator over HTTP.
 *
 * Modelled on google/tpgiamresource (resource_iam_member.go and iam.go, as
 * generated from magic-modules' iam.go.tmpl), for a resource type without
 * the provider's optional batching (only project-level IAM has it):
 *
 * - Create = `iamPolicyReadModifyWrite`, holding the per-policy mutex
 *   (`MutexStore.Lock(GetMutexKey())`) throughout:
 *   read (a 429 waits `backoff` and reads again), merge the member
 *   (`MergeBindings`, version 3), write; a 409 conflict waits `backoff`
 *   (1 s, doubling; "Too many conflicts" past 30 s) and redoes the cycle.
 *   After a successful write it verifies propagation: three times, sleep
 *   `fetchBackoff` (1 s; doubled after a 429 or an empty read; "Waited too
 *   long" past 30 s), then read. The check `modified_p == new_p` compares a
 *   pointer with itself, so every non-empty read counts: three reads, three
 *   seconds.
 * - then Read = `resourceIamMemberRead` → `iamPolicyReadWithRetry`: the
 *   mutex again, one read (transient errors retried).
 *
 * So one member grant costs 5 reads + 1 write and at least 3 s of sleeping,
 * all under its policy's mutex: grants of one policy run one after another.
 * Terraform's `-parallelism` is a semaphore around each resource's Create;
 * resources are admitted in a seeded random order (Terraform's walk starts
 * ready resources in no fixed order). Not modelled, all in the peer's
 * favour: Terraform's own work per resource (plan, state), the provider's
 * start-up, its request encoding.
 *
 * Two clocks: `real` sleeps and waits for the emulator's latency for real;
 * `virtual` runs the same code on a simulated clock (a discrete-event
 * scheduler) against an emulator without latency, charging each call the
 * latency plus the real time the call took. The virtual clock makes the
 * 1,000-grant points affordable (one policy: about an hour of real time);
 * `npm run bench` checks it against the real clock on a smaller replay.
 */
import * as http from 'http';
import type { GoogleApiEmulator } from '../lib/testing';
import { memberName, policyName, ROLE } from './deploy';

export interface PeerSpec {
  readonly grants: number;
  readonly policies: number;
  readonly parallelism: number;
  /** Latency of every API call, charged (virtual clock) or already added by the emulator (real clock). */
  readonly latencyMs: number;
}

export interface PeerResult {
  readonly ms: number;
  readonly reads: number;
  readonly writes: number;
  readonly calls: number;
  readonly conflicts: number;
}

interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** One API call: real clock, as it is; virtual clock, charged latency + the real time it took. */
  call<T>(fn: () => Promise<T>): Promise<T>;
}

class RealClock implements Clock {
  public now(): number {
    return performance.now();
  }

  public sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  public call<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }
}

/**
 * Discrete-event clock: time advances only when every task waits on it.
 * Real calls run one at a time as the simulation reaches them; each then
 * costs its caller `latencyMs` + its real duration of simulated time.
 */
class VirtualClock implements Clock {
  private time = 0;
  private seq = 0;
  private inFlight = 0;
  private readonly timers: Array<{ at: number; seq: number; resolve: () => void }> = [];

  constructor(private readonly latencyMs: number) {}

  public now(): number {
    return this.time;
  }

  public sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.timers.push({ at: this.time + ms, seq: this.seq++, resolve });
    });
  }

  public async call<T>(fn: () => Promise<T>): Promise<T> {
    this.inFlight++;
    const start = performance.now();
    let value: T;
    try {
      value = await fn();
    } catch (error) {
      const took = performance.now() - start;
      this.inFlight--;
      await this.sleep(this.latencyMs + took);
      throw error;
    }
    const took = performance.now() - start;
    this.inFlight--;
    await this.sleep(this.latencyMs + took);
    return value;
  }

  /** Runs `main` to completion, advancing the clock whenever every task waits on a timer. */
  public async run<T>(main: () => Promise<T>): Promise<T> {
    let done = false;
    let failure: unknown;
    let result: T | undefined;
    main().then(
      (v) => {
        result = v;
        done = true;
      },
      (e) => {
        failure = e;
        done = true;
      },
    );
    for (;;) {
      // Let every task run until it waits (microtasks, then real I/O in flight).
      await new Promise((resolve) => setImmediate(resolve));
      if (this.inFlight > 0) continue;
      if (done) break;
      if (this.timers.length === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.inFlight > 0 || done || this.timers.length > 0) continue;
        throw new Error('virtual clock: every task waits, and no timer is set (deadlock)');
      }
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      this.time = Math.max(this.time, next.at);
      next.resolve();
    }
    if (failure !== undefined) throw failure;
    return result as T;
  }
}

/** A FIFO mutex, as MutexStore's per-key sync.Mutex (close enough: Go's is FIFO under contention). */
class Mutex {
  private locked = false;
  private readonly waiters: Array<() => void> = [];

  public async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.locked) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.locked = true;
    try {
      return await fn();
    } finally {
      const next = this.waiters.shift();
      if (next) next();
      else this.locked = false;
    }
  }
}

class Semaphore {
  private readonly waiters: Array<() => void> = [];
  constructor(private free: number) {}

  public async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiters.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiters.shift();
      if (next) next();
      else this.free++;
    }
  }
}

interface Binding {
  role: string;
  members?: string[];
  condition?: unknown;
}
interface Policy {
  version?: number;
  etag?: string;
  bindings?: Binding[];
}

class HttpError extends Error {
  constructor(
    public readonly code: number,
    body: string,
  ) {
    super(`HTTP ${code}: ${body.slice(0, 200)}`);
  }
}

/** The provider's REST calls (Go's net/http keeps connections alive; so does this agent). */
class PeerApi {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly root: string,
    private readonly token: string,
    private readonly clock: Clock,
  ) {}

  public get(name: string): Promise<Policy> {
    return this.clock.call(() => this.request('GET', `v1/${name}:getIamPolicy?options.requestedPolicyVersion=3`));
  }

  public set(name: string, policy: Policy): Promise<Policy> {
    return this.clock.call(() => this.request('POST', `v1/${name}:setIamPolicy`, { policy }));
  }

  public close(): void {
    this.agent.destroy();
  }

  private request(method: string, path: string, body?: unknown): Promise<Policy> {
    return new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        `${this.root}${path}`,
        {
          method,
          agent: this.agent,
          headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        },
        (res) => {
          let data = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            data += chunk;
          });
          res.on('end', () =>
            res.statusCode === 200 ? resolve(JSON.parse(data) as Policy) : reject(new HttpError(res.statusCode ?? 0, data)),
          );
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  }
}

const MAX_BACKOFF_MS = 30_000;
const isCode = (error: unknown, code: number) => error instanceof HttpError && error.code === code;
const isTransient = (error: unknown) => error instanceof HttpError && [429, 500, 502, 503, 504].includes(error.code);

/** `ep.Bindings = MergeBindings(append(ep.Bindings, memberBind)); ep.Version = 3` for an unconditional member. */
function merge(policy: Policy, member: string): void {
  const bindings = policy.bindings ?? [];
  const binding = bindings.find((b) => b.role === ROLE && !b.condition);
  if (!binding) bindings.push({ role: ROLE, members: [member] });
  else if (!binding.members?.includes(member)) binding.members = [...(binding.members ?? []), member];
  policy.bindings = bindings;
  policy.version = 3;
}

class PeerProvider {
  private readonly mutexes = new Map<string, Mutex>();

  constructor(
    private readonly api: PeerApi,
    private readonly clock: Clock,
  ) {}

  /** resourceIamMemberCreate: read-modify-write under the mutex, then resourceIamMemberRead. */
  public async createMember(name: string, member: string): Promise<void> {
    await this.mutex(name).run(() => this.readModifyWrite(name, member));
    await this.mutex(name).run(() => this.readWithRetry(name));
  }

  private mutex(name: string): Mutex {
    let mutex = this.mutexes.get(name);
    if (!mutex) this.mutexes.set(name, (mutex = new Mutex()));
    return mutex;
  }

  /** iamPolicyReadModifyWrite (the caller holds the mutex). */
  private async readModifyWrite(name: string, member: string): Promise<void> {
    let backoff = 1_000;
    for (;;) {
      let policy: Policy;
      try {
        policy = await this.api.get(name);
      } catch (error) {
        if (isCode(error, 429)) {
          await this.clock.sleep(backoff);
          continue;
        }
        throw error;
      }
      merge(policy, member);
      try {
        await this.api.set(name, policy);
      } catch (error) {
        if (isCode(error, 409)) {
          await this.clock.sleep(backoff);
          backoff *= 2;
          if (backoff > MAX_BACKOFF_MS) throw new Error(`Too many conflicts: ${(error as Error).message}`);
          continue;
        }
        throw error;
      }
      // Verify propagation: three successful reads, each after fetchBackoff.
      let fetchBackoff = 1_000;
      for (let successful = 0; successful < 3;) {
        if (fetchBackoff > MAX_BACKOFF_MS) throw new Error('Waited too long for propagation');
        await this.clock.sleep(fetchBackoff);
        let read: Policy | undefined;
        try {
          read = await this.api.get(name);
        } catch (error) {
          if (!isCode(error, 429)) throw error;
          fetchBackoff *= 2;
        }
        if (!read) {
          fetchBackoff *= 2;
          continue;
        }
        successful++; // `modified_p == new_p` is always true (the same pointer)
      }
      return;
    }
  }

  /** iamPolicyReadWithRetry (transport_tpg.Retry on transient errors), holding the mutex. */
  private async readWithRetry(name: string): Promise<Policy> {
    let backoff = 500;
    for (;;) {
      try {
        return await this.api.get(name);
      } catch (error) {
        if (!isTransient(error)) throw error;
        await this.clock.sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }
}

/** Seeded Fisher-Yates (mulberry32), so every run admits the grants in the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Replays the peer's `terraform apply` of `spec.grants` member grants
 * (grant i on policy i mod policies) against `emulator`, whose policies it
 * resets first. With the real clock the emulator must add `spec.latencyMs`
 * itself; with the virtual clock it must add none.
 */
export async function replayPeer(emulator: GoogleApiEmulator, spec: PeerSpec, clockKind: 'real' | 'virtual'): Promise<PeerResult> {
  for (let p = 0; p < spec.policies; p++)
    emulator.addResource(policyName(p), {
      bindings: [{ role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] }],
    });
  emulator.resetStats();
  const env = emulator.env();
  const clock = clockKind === 'real' ? new RealClock() : new VirtualClock(spec.latencyMs);
  const api = new PeerApi(env.CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY, env.GOOGLE_OAUTH_ACCESS_TOKEN, clock);
  const provider = new PeerProvider(api, clock);
  const slots = new Semaphore(spec.parallelism);
  const order = shuffled(
    Array.from({ length: spec.grants }, (_, i) => i),
    42,
  );
  const apply = async () => {
    const start = clock.now();
    await Promise.all(order.map((i) => slots.run(() => provider.createMember(policyName(i % spec.policies), memberName(i)))));
    return clock.now() - start;
  };
  try {
    const ms = clock instanceof VirtualClock ? await clock.run(apply) : await apply();
    const stats = emulator.stats();
    let granted = 0;
    for (let p = 0; p < spec.policies; p++)
      granted += emulator.policy(policyName(p)).bindings?.find((b) => b.role === ROLE && !b.condition)?.members?.length ?? 0;
    if (granted !== spec.grants) throw new Error(`peer model: ${granted} of ${spec.grants} grants landed`);
    return {
      ms,
      reads: stats.getIamPolicy,
      writes: stats.setIamPolicy,
      calls: stats.getIamPolicy + stats.setIamPolicy,
      conflicts: stats.conflicts,
    };
  } finally {
    api.close();
  }
}

/** `ts-node bench/peer-model.ts GRANTS POLICIES real|virtual [LATENCY_MS] [PARALLELISM]`: one replay, as JSON. */
if (require.main === module) {
  void (async () => {
    const { GoogleApiEmulator } = await import('../lib/testing');
    const [grants = '100', policies = '1', clock = 'virtual', latency = '100', parallelism = '10'] = process.argv.slice(2);
    const spec = { grants: Number(grants), policies: Number(policies), latencyMs: Number(latency), parallelism: Number(parallelism) };
    const emulator = await GoogleApiEmulator.start({ latencyMs: clock === 'real' ? spec.latencyMs : 0 });
    try {
      process.stdout.write(`${JSON.stringify({ spec, clock, ...(await replayPeer(emulator, spec, clock as 'real' | 'virtual')) })}\n`);
    } finally {
      await emulator.close();
    }
  })().catch((error: Error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
}
