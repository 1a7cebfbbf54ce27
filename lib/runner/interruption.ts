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
    return new Interruption();
  }

  /** Listens to the supervisor over the IPC channel, and to signals sent to the worker itself. */
  public static fromSupervisor(): Interruption {
    const interruption = new Interruption();
    process.on('message', (message) => {
      if (message === INTERRUPT_MESSAGE) interruption.interrupt();
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

  private constructor() {}

  public get interrupted(): boolean {
    return this.isInterrupted;
  }

  private interrupt(): void {
    this.isInterrupted = true;
  }
}

/** What the supervisor sends its worker when it is interrupted. */
export const INTERRUPT_MESSAGE = 'interrupt';
