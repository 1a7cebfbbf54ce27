/**
 * What one provider process keeps between calls: the context its
 * configuration built (later calls wait for ConfigureProvider, which
 * Terraform sends first) and the running calls' abort signals (StopProvider
 * aborts them all).
 */
import type { CtyObject } from '../framework/cty';
import { ProtocolError } from './protocol-error';

/** A gRPC call Terraform may cancel (a ServerUnaryCall). */
export interface CancellableCall {
  on(event: 'cancelled', listener: () => void): unknown;
}

/** The configured context and the running calls of one provider process. */
export class ProviderState<Context> {
  private readonly running = new Set<AbortController>();
  private stopped = false;
  private context: Promise<Context | undefined>;
  private settle!: (context: Context | undefined) => void;
  private configuredOnce = false;
  /** The provider block's values as last given (ValidateProviderConfig, then ConfigureProvider). */
  private lastProviderConfig?: CtyObject;

  constructor() {
    this.context = new Promise((resolve) => (this.settle = resolve));
  }

  /** Records the configuration's outcome: the context, or undefined when it failed. */
  public configured(context: Context | undefined): void {
    this.configuredOnce = true;
    this.settle(context);
    // Terraform configures a process once; should it configure again, later calls get the new context.
    this.context = Promise.resolve(context);
  }

  /** Records the provider block's values Terraform gave (ValidateProviderConfig or ConfigureProvider): what resource validation reads of them. */
  public providerConfigGiven(config: CtyObject | null): void {
    if (config) this.lastProviderConfig = config;
  }

  /** The provider block's values as last given, if any. */
  public get providerConfig(): CtyObject | undefined {
    return this.lastProviderConfig;
  }

  /** Whether ConfigureProvider has been called (Terraform never configures the process of a static validation). */
  public get isConfigured(): boolean {
    return this.configuredOnce;
  }

  /** The configured context, once ConfigureProvider has run; throws when it failed or `signal` aborts first. */
  public async configuredContext(signal: AbortSignal): Promise<Context> {
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(ProtocolError.interrupted());
      signal.addEventListener('abort', () => reject(ProtocolError.interrupted()), { once: true });
    });
    const context = await Promise.race([this.context, aborted]);
    if (context === undefined) throw ProtocolError.notConfigured();
    return context;
  }

  /** Runs `work` with a signal that StopProvider (or the call's cancellation by Terraform) aborts. */
  public async track<T>(cancelled: CancellableCall, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    if (this.stopped) controller.abort();
    this.running.add(controller);
    cancelled.on('cancelled', () => controller.abort());
    try {
      return await work(controller.signal);
    } finally {
      this.running.delete(controller);
    }
  }

  /**
   * StopProvider: aborts every running call, and every call after it.
   * Terraform sends StopProvider when it is interrupted and starts nothing
   * afterwards, so a call that comes later was sent before it (gRPC does not
   * order separate calls: Terraform prints "Creating..." and sends the
   * change, then Ctrl-C's StopProvider can arrive first). It is cancelled as
   * it would have been; for a change, Terraform then keeps the prior state.
   */
  public stopAll(): void {
    this.stopped = true;
    for (const controller of this.running) controller.abort();
  }
}
