/**
 * Whether the run of one grant was interrupted, as its worker process learns
 * it (see supervisor.ts): the supervisor Terraform started passes on a
 * SIGINT, SIGTERM or SIGHUP, or it vanished (Terraform kills a provisioner's
 * process as soon as it is interrupted itself). Either way Terraform counts
 * the create as failed, so the worker finishes what is in flight and takes
 * back its own change.
 */
export class Interruption {
  /** For a run nobody can interrupt (tests, an in-process call). */
  public static never(): Interruption {
    return new Interruption(() => Promise.resolve(true));
  }

  /** Listens to the supervisor over the IPC channel, and to signals sent to the worker itself. */
  public static fromSupervisor(): Interruption {
    let answer: ((accepted: boolean) => void) | undefined;
    const interruption = new Interruption(() => {
      if (interruption.interrupted || !process.send) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        answer = resolve;
        process.send!(DONE_MESSAGE, undefined, {}, () => undefined);
      });
    });
    process.on('message', (message) => {
      if (message === INTERRUPT_MESSAGE) interruption.interrupt();
      if (message === ACCEPT_MESSAGE) answer?.(true);
    });
    process.on('disconnect', () => {
      interruption.supervisorGone = true;
      interruption.interrupt();
    });
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => interruption.interrupt());
    return interruption;
  }

  private isInterrupted = false;
  /** The supervisor is gone: nobody reads this worker's output any more. */
  public supervisorGone = false;
  private onInterrupt?: () => void;

  private constructor(private readonly ask: () => Promise<boolean>) {}

  /**
   * Asks the supervisor whether a create that succeeded stands: true unless
   * it was interrupted before it could pass the success on to Terraform
   * (then Terraform counts the create as failed, and it must be taken back).
   */
  public async successStands(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      this.onInterrupt = () => resolve(false);
      this.ask().then(resolve, () => resolve(false));
    });
  }

  public get interrupted(): boolean {
    return this.isInterrupted;
  }

  private interrupt(): void {
    this.isInterrupted = true;
    this.onInterrupt?.();
  }
}

/** What the supervisor sends its worker when it is interrupted. */
export const INTERRUPT_MESSAGE = 'interrupt';
/** The worker's create succeeded: may it report success? The supervisor answers ACCEPT or INTERRUPT. */
export const DONE_MESSAGE = 'done';
export const ACCEPT_MESSAGE = 'accept';
