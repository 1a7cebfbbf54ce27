/**
 * UpgradeResourceState: Terraform hands over a stored state, as JSON, before
 * anything else reads it, to be brought to the current schema. As
 * terraform-plugin-framework's proto6server/server_upgraderesourcestate.go,
 * for a provider whose schemas have one version: attributes a former schema
 * had and this one lacks are dropped, new ones start null.
 */
import { ctyFromJson, type CtyType, type CtyValue } from '../../framework/cty';
import { encodeDynamicValue } from '../dynamic-value';
import { ProtocolError } from '../protocol-error';
import type { ProviderServer } from '../provider-server';
import type * as wire from '../wire';

/** The UpgradeResourceState RPC. */
export function upgradeResourceState<Context>(
  server: ProviderServer<Context>,
  request: wire.UpgradeResourceStateRequest,
): wire.UpgradeResourceStateResponse {
  const { type } = server.resource(request.type_name);
  return { upgraded_state: encodeDynamicValue(decode(request, type), type, 'upgraded state'), diagnostics: [] };
}

/** The stored state as a value of the current schema's type: null when there is none. */
function decode(request: wire.UpgradeResourceStateRequest, type: CtyType): CtyValue {
  const raw = request.raw_state;
  if (!raw?.json || raw.json.length === 0) {
    if (raw?.flatmap && Object.keys(raw.flatmap).length > 0) throw ProtocolError.flatmapState();
    return null;
  }
  try {
    return ctyFromJson(JSON.parse(Buffer.from(raw.json).toString('utf8')), type, { dropUnknownAttributes: true });
  } catch (e) {
    throw ProtocolError.undecodable('stored state', (e as Error).message);
  }
}
