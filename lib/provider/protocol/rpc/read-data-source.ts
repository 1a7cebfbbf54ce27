/**
 * ReadDataSource: Terraform reads a data source (at plan when its
 * configuration is known, else at apply). As terraform-plugin-framework's
 * proto6server/server_readdatasource.go: the configuration decoded against
 * the type's schema, the type's read, the answer encoded.
 */
import type { CtyObject } from '../../framework/cty';
import { Diagnostics } from '../../framework/diagnostics';
import type { DataSourceType } from '../../framework/resource';
import { decodeObject, encodeDynamicValue } from '../dynamic-value';
import { checkKnown, type ProviderServer, type Typed } from '../provider-server';
import type { CancellableCall } from '../provider-state';
import { ProtocolError } from '../protocol-error';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

interface ReadRequest<Context> {
  readonly typeName: string;
  readonly dataSource: Typed<DataSourceType<Context>>;
  readonly config: CtyObject | null;
}

interface ReadResult {
  readonly result: CtyObject | null;
  readonly diagnostics: Diagnostics;
}

/** The ReadDataSource RPC. */
export async function readDataSource<Context>(
  server: ProviderServer<Context>,
  request: wire.TypedConfigRequest,
  call: CancellableCall,
): Promise<wire.ReadDataSourceResponse> {
  const decoded = decode(server, request);
  return encode(decoded, await read(server, decoded, call));
}

function decode<Context>(server: ProviderServer<Context>, request: wire.TypedConfigRequest): ReadRequest<Context> {
  const dataSource = server.dataSource(request.type_name);
  return { typeName: request.type_name, dataSource, config: decodeObject(request.config, dataSource.type, 'data source configuration') };
}

async function read<Context>(server: ProviderServer<Context>, request: ReadRequest<Context>, call: CancellableCall): Promise<ReadResult> {
  const { typeName, dataSource, config } = request;
  const diagnostics = new Diagnostics();
  const result =
    config === null
      ? null
      : await server.state.track(call, async (signal) =>
          dataSource.definition.read(await server.callContext(signal, typeName), config, diagnostics),
        );
  if (result === null && !diagnostics.hasError) throw ProtocolError.invalidResult('data source result', `${typeName} read no value`);
  checkKnown(result, 'data source result');
  return { result, diagnostics };
}

function encode<Context>(request: ReadRequest<Context>, { result, diagnostics }: ReadResult): wire.ReadDataSourceResponse {
  const { type } = request.dataSource;
  return {
    state: diagnostics.hasError ? null : encodeDynamicValue(result, type, 'data source result'),
    diagnostics: wireDiagnostics(diagnostics, type),
  };
}
