import { IamValidationError } from '../iam/errors';

/** Which message a `ContractError` is about, as its text names it. */
export type MessageName = 'read query' | 'lookup answer' | 'run declaration' | 'saved plan state' | 'moved state';

/** Where each message comes from, for the error's text. */
const SOURCES: Readonly<Record<MessageName, string>> = {
  'read query': 'the query on stdin',
  'lookup answer': "the provider's lookup answer",
  'run declaration': "a declaration of another googleiam provider process of this terraform run (in the run's folder)",
  'saved plan state': 'the prior state in the saved plan terraform applies (its tfstate)',
  'moved state': "the state terraform sends of the object a moved block moves (another resource type's, perhaps the google provider's)",
};

/** What to do about a message that is not what its sender writes. */
const REMEDIES: Readonly<Record<MessageName, string>> = {
  'read query': 'run the lookup from the same version of cdktf-google-iam as the provider bundle it starts',
  'lookup answer': 'run the lookup from the same version of cdktf-google-iam as the provider bundle it starts',
  'run declaration': 'use one version of the googleiam provider in one terraform run, and let nothing else write in that folder',
  'saved plan state': 'apply the plan with the terraform version that made it (terraform itself refuses any other)',
  'moved state': 'import the object instead of moving it (an import block, and a removed block with destroy = false for the old one)',
};

/**
 * A message between a Direct-form lookup and the provider's lookup mode that
 * the receiver refuses, naming the field and the value. Two causes, told
 * apart because the remedy differs:
 * - `shape`: the message is not what the sender writes (not JSON, a field
 *   missing or of the wrong type): a bundle from another version, or a
 *   hand-made call.
 * - `value`: a value fails the check the constructs run at synth: the
 *   message is the construct's, and the remedy is to fix that value.
 */
export class ContractError extends Error {
  constructor(
    public readonly messageName: MessageName,
    public readonly kind: 'shape' | 'value',
    /** The field, as a path in the message: `resource.name`, `bindings[1].members[0]`; `''` for the whole message. */
    public readonly field: string,
    public readonly value: unknown,
    /** Why it is refused, and what is expected instead. */
    public readonly reason: string,
  ) {
    super(ContractError.text(messageName, kind, field, value, reason));
    this.name = 'ContractError';
  }

  /** A shape error: the message is not what synth writes. */
  public static shape(messageName: MessageName, field: string, value: unknown, reason: string): ContractError {
    return new ContractError(messageName, 'shape', field, value, reason);
  }

  /** Runs `check`, a validator the constructs share; its IamValidationError becomes a value error of the message. */
  public static checking<T>(messageName: MessageName, check: () => T): T {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof IamValidationError)) throw error;
      throw new ContractError(messageName, 'value', error.field, error.value, error.reason);
    }
  }

  private static text(messageName: MessageName, kind: 'shape' | 'value', field: string, value: unknown, reason: string): string {
    const source = SOURCES[messageName];
    const what = `${field ? `${field}: ` : ''}${reason} (got ${IamValidationError.show(value)})`;
    return kind === 'shape'
      ? `${source} is malformed: ${what}; ${REMEDIES[messageName]}`
      : `${source} holds a value the lookups would refuse: ${what}`;
  }
}
