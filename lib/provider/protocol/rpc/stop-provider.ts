/**
 * StopProvider: Terraform was interrupted (Ctrl-C). Answered at once:
 * running calls see their signal abort and settle on their own, work not yet
 * sent is abandoned, as terraform-plugin-framework's StopProvider cancels
 * every registered call context.
 */
import type * as grpc from '@grpc/grpc-js';
import type { ProviderServer } from '../provider-server';

/** The StopProvider handler (not a diagnostics answer: its response has an `Error` string). */
export function stopProvider<Context>(server: ProviderServer<Context>): grpc.handleUnaryCall<unknown, unknown> {
  return (_call, callback) => {
    server.logger.log('info', 'StopProvider: aborting running calls');
    server.stop();
    callback(null, { Error: '' });
  };
}
