/**
 * The stand-in google provider's process (bundled by bundle.ts): the
 * protocol layer's service for googleStandin, each RPC logged, as one JSON
 * line `{"rpc": ..., "type": ...}`, to the file GOOGLE_STANDIN_LOG names.
 */
import * as fs from 'fs';
import type * as grpc from '@grpc/grpc-js';
import { Logger } from '../../../lib/provider/protocol/log';
import { PluginStartError, servePlugin } from '../../../lib/provider/protocol/plugin-server';
import { loadServices } from '../../../lib/provider/protocol/proto';
import { createProviderService } from '../../../lib/provider/protocol/provider-service';
import { googleStandin } from './google-standin';

const logFile = process.env.GOOGLE_STANDIN_LOG;
const service = createProviderService(googleStandin, new Logger('provider.google'));
const logged: grpc.UntypedServiceImplementation = Object.fromEntries(
  Object.entries(service.implementation).map(([rpc, handler]) => [
    rpc,
    (call: { request: { type_name?: string } }, callback: unknown) => {
      if (logFile) fs.appendFileSync(logFile, `${JSON.stringify({ rpc, type: call.request?.type_name })}\n`);
      return (handler as (call: unknown, callback: unknown) => unknown)(call, callback);
    },
  ]),
);
servePlugin({ services: loadServices(), protocolVersion: 6, provider: logged, onShutdown: service.stop }).catch((e: unknown) => {
  process.stderr.write(`${e instanceof PluginStartError ? e.message : e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
