/**
 * Google's IAM policies as the engine meets them at their worst, in process:
 * the emulator's store (Google's rules: etags, versions, limits) behind
 * reads that are eventually consistent and writes whose answers get lost.
 * Google's IAM API reference: "each read is eventually consistent … the read
 * operation might return an older version of the data"; writes are
 * sequentially consistent (an etag is checked against the current version).
 * Every choice comes from a seeded generator, so a case can be replayed.
 */
import { GoogleApiError } from '../../lib/api/errors';
import type { IamPolicyEndpoint, SetIamPolicyOptions } from '../../lib/api/iam-policy';
import type { Policy } from '../../lib/iam/types';
import { IamPolicyStore } from '../../lib/testing/emulator/iam-store';
import { ApiError } from '../../lib/testing/emulator/api-error';

export interface Misbehaviour {
  /** Chance that a read answers an older version than the current one. */
  readonly staleReads: number;
  /** How many versions back a stale read may go. */
  readonly staleDepth: number;
  /** Chance that a write is carried out and its answer lost (a 503 after the change). */
  readonly lostAnswers: number;
  /** Chance that a write is refused with a 503 before anything is done. */
  readonly refusedWrites: number;
}

export class LaggingPolicies {
  public readonly store = new IamPolicyStore();
  /** Every version of each policy, oldest first, as a version 3 read returns it. */
  private readonly versions = new Map<string, Policy[]>();
  private state: number;
  public reads = 0;
  public writes = 0;

  constructor(
    private readonly misbehaviour: Misbehaviour,
    seed: number,
  ) {
    this.state = seed >>> 0;
  }

  /** A resource with `policy`; `earlier` are versions it had before (oldest first), which a stale read may still answer. */
  public add(name: string, policy?: Policy, earlier: readonly Policy[] = []): void {
    this.store.add(name, policy);
    this.versions.set(name, [...earlier.map((p, i) => ({ ...clone(p), etag: `earlier-${i}` })), this.store.current(name)]);
  }

  /** The truth, for the oracle. */
  public current(name: string): Policy {
    return this.store.current(name);
  }

  public endpoint(name: string): IamPolicyEndpoint {
    return {
      getIamPolicy: async () => {
        await Promise.resolve();
        this.reads++;
        const versions = this.versions.get(name)!;
        if (versions.length > 1 && this.chance(this.misbehaviour.staleReads)) {
          const back = 1 + Math.floor(this.random() * Math.min(this.misbehaviour.staleDepth, versions.length - 1));
          return clone(versions[versions.length - 1 - back]);
        }
        return this.store.get(name, 3);
      },
      setIamPolicy: async (policy: Policy, options: SetIamPolicyOptions) => {
        await Promise.resolve();
        this.writes++;
        if (this.chance(this.misbehaviour.refusedWrites)) throw unavailable('refused before anything was done');
        let written: Policy;
        try {
          written = this.store.set(name, { policy, ...(options.updateAuditConfigs ? { updateMask: 'bindings,etag,auditConfigs' } : {}) });
        } catch (error) {
          if (error instanceof ApiError) throw new GoogleApiError(error.code, error.status, error.message, `POST ${name}:setIamPolicy`);
          throw error;
        }
        this.versions.get(name)!.push(written);
        if (this.chance(this.misbehaviour.lostAnswers)) throw unavailable('carried out, and the answer lost');
        return clone(written);
      },
    };
  }

  private chance(p: number): boolean {
    return p > 0 && this.random() < p;
  }

  /** mulberry32. */
  private random(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

function unavailable(what: string): GoogleApiError {
  return new GoogleApiError(503, 'UNAVAILABLE', `The service is currently unavailable (${what}).`, 'POST setIamPolicy');
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
