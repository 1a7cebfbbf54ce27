import { ApiError } from './api-error';

/**
 * `html` and `empty` answer 200 with a body that is not Google's JSON (a captive portal page, an
 * empty body) and serve nothing; they are never picked unless listed in `kinds`.
 */
export type FaultKind = '429' | '500' | '503' | '409' | 'reset' | 'html' | 'empty';
/** The API methods the emulator serves (and can inject faults into). */
export type EmulatedMethod = 'getIamPolicy' | 'setIamPolicy' | 'getImportJob' | 'getProject';

/** Which requests fail, and how. */
export interface FaultOptions {
  /** Fraction of matching requests that fail, 0..1. */
  readonly rate: number;
  /** @default ['429', '500', '503', '409', 'reset'] */
  readonly kinds?: readonly FaultKind[];
  /** Seed of the pseudo-random sequence, so a failing run can be replayed. @default 1 */
  readonly seed?: number;
  /** @default - every API method */
  readonly methods?: readonly EmulatedMethod[];
}

/** What to do with one request: nothing, answer with an error, or drop the connection. */
export type FaultDecision =
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly error: ApiError }
  | { readonly kind: 'reset' }
  | { readonly kind: 'malformed'; readonly contentType: string; readonly body: string };

const ALL_KINDS: readonly FaultKind[] = ['429', '500', '503', '409', 'reset'];

const MALFORMED: Record<'html' | 'empty', { contentType: string; body: string }> = {
  html: { contentType: 'text/html; charset=UTF-8', body: '<!DOCTYPE html><html><body><h1>Sign in to the network</h1></body></html>' },
  empty: { contentType: 'application/json', body: '' },
};

const ERRORS: Record<Exclude<FaultKind, 'reset' | 'html' | 'empty'>, () => ApiError> = {
  '429': () => new ApiError(429, 'RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'Read requests' (injected fault)."),
  '500': () => new ApiError(500, 'INTERNAL', 'Internal error encountered (injected fault).'),
  '503': () => new ApiError(503, 'UNAVAILABLE', 'The service is currently unavailable (injected fault).'),
  '409': () =>
    new ApiError(
      409,
      'ABORTED',
      'There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff (injected fault).',
    ),
};

/** Seeded fault injection (mulberry32), deterministic for a given request order. */
export class FaultInjector {
  private state: number;

  constructor(private readonly options: FaultOptions) {
    if (!(options.rate >= 0 && options.rate <= 1)) throw new Error(`fault rate must be within 0..1 (got ${options.rate})`);
    this.state = (options.seed ?? 1) >>> 0;
  }

  public decide(method: EmulatedMethod): FaultDecision {
    if (this.options.methods && !this.options.methods.includes(method)) return { kind: 'none' };
    if (this.next() >= this.options.rate) return { kind: 'none' };
    const kinds = this.options.kinds?.length ? this.options.kinds : ALL_KINDS;
    const kind = kinds[Math.floor(this.next() * kinds.length)];
    if (kind === 'reset') return { kind: 'reset' };
    if (kind === 'html' || kind === 'empty') return { kind: 'malformed', ...MALFORMED[kind] };
    return { kind: 'error', error: ERRORS[kind]() };
  }

  private next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
