/**
 * The problems this layer itself finds in a call (an unknown type, a value
 * it cannot decode, a provider that failed to configure, ...): thrown as a
 * ProtocolError, answered as an error diagnostic (never a bare gRPC error),
 * and all worded here.
 */
export class ProtocolError extends Error {
  constructor(
    public readonly summary: string,
    public readonly detail: string,
  ) {
    super(`${summary}: ${detail}`);
  }

  public static unknownType(kind: 'resource' | 'data source', typeName: string, provider: string): ProtocolError {
    return new ProtocolError(`Unknown ${kind} type`, `The ${kind} type "${typeName}" is not served by the provider "${provider}".`);
  }

  public static undecodable(what: string, message: string): ProtocolError {
    return new ProtocolError(`Unable to read the ${what}`, `The provider could not decode the ${what} Terraform sent: ${message}`);
  }

  public static notConfigured(): ProtocolError {
    return new ProtocolError(
      'Provider not configured',
      'The provider was called before its configuration succeeded (see the error its configuration reported).',
    );
  }

  public static interrupted(): ProtocolError {
    return new ProtocolError('Interrupted', 'Terraform stopped the provider (Ctrl-C) before this call could start.');
  }

  public static invalidResult(what: string, message: string): ProtocolError {
    return new ProtocolError(`Provider returned an invalid ${what}`, `${message}. This is a bug in the provider; please report it.`);
  }

  public static flatmapState(): ProtocolError {
    return new ProtocolError(
      'Unable to upgrade the state',
      'The stored state is in the legacy flatmap format (Terraform 0.11 and earlier), which this provider has never written.',
    );
  }

  public static unsupported(what: string): ProtocolError {
    return new ProtocolError(`${what} is not supported`, `This provider does not support ${what}.`);
  }

  /** A saved plan whose unchanged objects could not be read (saved-plan.ts): a warning, the apply goes on. */
  public static savedPlanUnread(problem: string): ProtocolError {
    return new ProtocolError(
      'The saved plan could not be read',
      `The provider ${problem}, so it does not know what the resources this plan leaves as they are hold: a removal in this apply may take away a grant one of them also holds. If so, the next terraform plan shows it, and terraform apply restores it.`,
    );
  }

  /** Anything else thrown by a call: a bug, reported with its message rather than as a gRPC failure. */
  public static internal(rpc: string, error: unknown): ProtocolError {
    const message = error instanceof Error ? error.message : String(error);
    return new ProtocolError(
      'Internal error in the provider',
      `${rpc} failed unexpectedly: ${message}. This is a bug in the provider; please report it.`,
    );
  }
}
