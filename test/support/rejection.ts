/** The error `promise` rejects with, checked to be a `type` (the test fails if it resolves or rejects with something else). */
export async function rejectionOf<E extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

/** The error `run` throws, checked to be a `type` (the test fails if it returns or throws something else). */
export function thrownBy<E extends Error>(run: () => unknown, type: abstract new (...args: never[]) => E): E {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(type);
  return error as E;
}
