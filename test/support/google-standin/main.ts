/**
 * The stand-in google provider's process (bundled by bundle.ts): the
 * protocol layer's service for googleStandin, each RPC logged, as one JSON
 * line `{"rpc": ..., "type": ...}`, to the file GOOGLE_STANDIN_LOG names.
 */
import * as fs from 'fs';
import type * as grpc from '@grpc/grpc-js';
import { providerHandlers, servePluginOrExit } from '../../../lib/provider/protocol/serve';
import { googleStandin } from './google-standin';

const logFile = process.env.GOOGLE_STANDIN_LOG;
servePluginOrExit(() => {
  const handlers = providerHandlers(googleStandin);
  const logged: grpc.UntypedServiceImplementation = Object.fromEntries(
    Object.entries(handlers.provider).map(([rpc, handler]) => [
      rpc,
      (call: { request: { type_name?: string } }, callback: unknown) => {
        if (logFile) fs.appendFileSync(logFile, `${JSON.stringify({ rpc, type: call.request?.type_name })}\n`);
        return (handler as (call: unknown, callback: unknown) => unknown)(call, callback);
      },
    ]),
  );
  return { ...handlers, provider: logged };
});
