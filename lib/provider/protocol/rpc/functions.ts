/**
 * GetFunctions and CallFunction: this provider has no functions. CallFunction
 * answers with a FunctionError, not diagnostics.
 */
import type * as grpc from '@grpc/grpc-js';

/** The GetFunctions RPC. */
export function getFunctions(): unknown {
  return { functions: {}, diagnostics: [] };
}

/** The CallFunction handler. */
export const callFunction: grpc.handleUnaryCall<{ name: string }, unknown> = (call, callback) => {
  callback(null, { result: null, error: { text: `This provider has no function "${call.request.name}".` } });
};
