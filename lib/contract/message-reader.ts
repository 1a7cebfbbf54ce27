import { ContractError, type MessageName } from './contract-error';

/** A JSON object as parsed, its fields not yet checked. */
export type JsonObject = Readonly<Record<string, unknown>>;

/**
 * Reads the parts of one message from parsed JSON, each checked for its type
 * and named by its path in the message: what a parser builds typed values
 * from, so no part of a message is ever cast into shape.
 */
export class MessageReader {
  constructor(private readonly messageName: MessageName) {}

  /** Parses the message's JSON text. */
  public json(text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
      throw ContractError.shape(this.messageName, '', shown, `not JSON (${(error as Error).message})`);
    }
  }

  public object(value: unknown, field: string): JsonObject {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw this.shape(field, value, 'expected an object');
    return value as JsonObject;
  }

  public list(value: unknown, field: string): readonly unknown[] {
    if (!Array.isArray(value)) throw this.shape(field, value, 'expected a list');
    return value;
  }

  /** A string that may be empty. */
  public string(value: unknown, field: string): string {
    if (typeof value !== 'string') throw this.shape(field, value, 'expected a string');
    return value;
  }

  /** A non-empty string. */
  public text(value: unknown, field: string): string {
    if (typeof value !== 'string' || value.length === 0) throw this.shape(field, value, 'expected a non-empty string');
    return value;
  }

  /** A string, or undefined when the field is absent. */
  public optionalString(value: unknown, field: string): string | undefined {
    return value === undefined ? undefined : this.string(value, field);
  }

  /** A list of non-empty strings. */
  public texts(value: unknown, field: string): string[] {
    return this.list(value, field).map((item, i) => this.text(item, `${field}[${i}]`));
  }

  /** One of `choices`. */
  public oneOf<T extends string>(value: unknown, field: string, choices: readonly T[]): T {
    if (!choices.includes(value as T)) throw this.shape(field, value, `expected ${choices.join(', ')}`);
    return value as T;
  }

  /** Runs a validator the constructs share: its IamValidationError becomes this message's value error. */
  public check<T>(validate: () => T): T {
    return ContractError.checking(this.messageName, validate);
  }

  private shape(field: string, value: unknown, reason: string): ContractError {
    return ContractError.shape(this.messageName, field, value, reason);
  }
}
