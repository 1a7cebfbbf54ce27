/**
 * DynamicValue: how Terraform sends and takes a configuration, a plan or a
 * state, msgpack-encoded cty (or JSON, which Terraform 1.x does not send
 * to providers but the protocol allows).
 */
import { ctyFromJson, decodeCty, encodeCty, type CtyObject, type CtyType, type CtyValue } from '../framework/cty';
import { ProtocolError } from './protocol-error';
import type { WireDynamicValue } from './wire';

/** Decodes `value` as `type`; `what` names it in the diagnostic when it cannot be read. An absent value is null. */
export function decodeDynamicValue(value: WireDynamicValue | null | undefined, type: CtyType, what: string): CtyValue {
  try {
    if (value?.msgpack && value.msgpack.length > 0) return decodeCty(value.msgpack, type);
    if (value?.json && value.json.length > 0) return ctyFromJson(JSON.parse(Buffer.from(value.json).toString('utf8')), type);
    return null;
  } catch (e) {
    throw ProtocolError.undecodable(what, (e as Error).message);
  }
}

/** Decodes a configuration, plan or state: an object of its schema's type, or null (no object). */
export function decodeObject(value: WireDynamicValue | null | undefined, type: CtyType, what: string): CtyObject | null {
  return decodeDynamicValue(value, type, what) as CtyObject | null;
}

/** Encodes `value` as msgpack; null is msgpack nil, which Terraform reads as "no object". */
export function encodeDynamicValue(value: CtyValue, type: CtyType, what: string): { msgpack: Buffer } {
  try {
    return { msgpack: Buffer.from(encodeCty(value, type)) };
  } catch (e) {
    throw ProtocolError.invalidResult(what, (e as Error).message);
  }
}
