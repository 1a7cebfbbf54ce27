/**
 * The gRPC services of the plugin, from the .proto files beside this one.
 * The bundle embeds them as strings (esbuild's text loader, see the
 * `bundle:provider` script), so nothing but the one .js file is needed at
 * run time; protobufjs parses them and proto-loader turns them into grpc-js
 * service definitions.
 */
import { fromJSON } from '@grpc/proto-loader';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { Root, common, parse } from 'protobufjs';

// esbuild embeds each .proto as a string (`--loader:.proto=text`): a require is how that text is reached.
/* eslint-disable @typescript-eslint/no-require-imports */
const PROTO_SOURCES: readonly string[] = [
  require('./tfplugin6.proto') as string,
  require('./go-plugin.proto') as string,
  require('./health.proto') as string,
];
/* eslint-enable @typescript-eslint/no-require-imports */

/** The gRPC service definitions the plugin serves. */
export interface PluginServices {
  /** tfplugin6.Provider: Terraform's provider protocol, version 6. */
  readonly provider: ServiceDefinition;
  /** plugin.GRPCController: go-plugin's Shutdown. */
  readonly controller: ServiceDefinition;
  /** plugin.GRPCStdio: go-plugin's copy of the plugin's stdout and stderr. */
  readonly stdio: ServiceDefinition;
  /** plugin.GRPCBroker: go-plugin's extra connections. */
  readonly broker: ServiceDefinition;
  /** grpc.health.v1.Health: go-plugin's ping. */
  readonly health: ServiceDefinition;
}

/** Loads the embedded .proto files into gRPC service definitions. */
export function loadServices(): PluginServices {
  const root = new Root();
  // tfplugin6 imports google/protobuf/timestamp.proto, which protobufjs carries as one of its common types.
  const timestamp = common.get('google/protobuf/timestamp.proto');
  if (timestamp?.nested) root.addJSON(timestamp.nested);
  for (const source of PROTO_SOURCES) parse(source, root, { keepCase: true });
  // Plain objects with snake_case fields, enums as their names, int64 as strings, and defaults filled in.
  const definitions = fromJSON(root.toJSON(), { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
  const service = (name: string): ServiceDefinition => definitions[name] as unknown as ServiceDefinition;
  return {
    provider: service('tfplugin6.Provider'),
    controller: service('plugin.GRPCController'),
    stdio: service('plugin.GRPCStdio'),
    broker: service('plugin.GRPCBroker'),
    health: service('grpc.health.v1.Health'),
  };
}
