/** An error the emulator answers with, in Google's JSON error shape. */
export class ApiError extends Error {
  constructor(
    public readonly code: number,
    public readonly status: string,
    message: string,
  ) {
    super(message);
  }

  public body(): { error: { code: number; message: string; status: string } } {
    return { error: { code: this.code, message: this.message, status: this.status } };
  }
}

export const invalidArgument = (message: string) => new ApiError(400, 'INVALID_ARGUMENT', message);
export const notFound = (message: string) => new ApiError(404, 'NOT_FOUND', message);

/** Google's answer to a field it does not define, e.g. `Unknown name "foo" at 'policy.bindings[0]'`. */
export function rejectUnknownFields(value: unknown, known: readonly string[], where: string): void {
  if (value === undefined) return;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidArgument(`Invalid value at '${where}': expected an object`);
  }
  for (const key of Object.keys(value)) {
    if (!known.includes(key))
      throw invalidArgument(`Invalid JSON payload received. Unknown name "${key}" at '${where}': Cannot find field.`);
  }
}
