/**
 * The plugin's side of go-plugin's AutoMTLS: a fresh self-signed server
 * certificate per process, shaped like the one go-plugin's generateCert
 * makes (CN and DNS name "localhost", CA, server and client auth), which
 * Terraform trusts because the handshake line carries it.
 *
 * The key is EC P-256 from Node's crypto (under a millisecond; RSA in pure
 * JS costs seconds and Terraform starts the provider ~3 times per plan).
 * node-forge cannot sign with EC keys, so its ASN.1 module builds the DER
 * and crypto signs the to-be-signed part.
 */
import * as crypto from 'crypto';
import type * as Forge from 'node-forge';

// Only the ASN.1 module: the whole of node-forge adds ~20 ms to every start.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a module of the package, not its typed index
const asn1 = require('node-forge/lib/asn1') as typeof Forge.asn1;

/** The plugin's TLS identity for AutoMTLS: its key and certificate. */
export interface ServerCertificate {
  /** PEM of the certificate, for the TLS server. */
  readonly certPem: string;
  /** PEM (PKCS#8) of its private key. */
  readonly keyPem: string;
  /** The certificate as base64 DER without padding (Go's RawStdEncoding), for the handshake line. */
  readonly handshakeCert: string;
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};

/** Makes a new key and a self-signed certificate for "localhost", valid for ~30 years as go-plugin's. */
export function generateServerCertificate(now = new Date()): ServerCertificate {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const notBefore = new Date(now.getTime() - 30_000);
  const notAfter = new Date(now.getTime() + 262_980 * 3600_000);
  const name = seq(set(seq(oid(OID.organization), utf8('HashiCorp'))), set(seq(oid(OID.commonName), utf8('localhost'))));
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))), // v3
    integer(serialNumber()),
    seq(oid(OID.ecdsaWithSha256)),
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    asn1.fromDer(binary(spki)),
    explicit(
      3,
      seq(
        // digitalSignature (bit 0) and keyCertSign (bit 5): 0b1000_0100, the 2 low bits unused.
        extension(OID.keyUsage, true, bitString(Buffer.from([0x84]), 2)),
        extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth), oid(OID.clientAuth))),
        extension(OID.basicConstraints, true, seq(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BOOLEAN, false, '\xff'))),
        extension(
          OID.subjectAltName,
          false,
          seq(
            asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, 'localhost'), // dNSName
            asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, binary(Buffer.from([127, 0, 0, 1]))), // iPAddress
          ),
        ),
      ),
    ),
  );
  const tbsDer = der(tbs);
  const signature = crypto.sign('sha256', tbsDer, privateKey); // DER-encoded ECDSA signature
  const certDer = der(seq(asn1.fromDer(binary(tbsDer)), seq(oid(OID.ecdsaWithSha256)), bitString(signature, 0)));
  return {
    certPem: `-----BEGIN CERTIFICATE-----\n${certDer.toString('base64').replace(/.{64}/g, '$&\n').trimEnd()}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    handshakeCert: certDer.toString('base64').replace(/=+$/, ''),
  };
}

type Node = Forge.asn1.Asn1;

function seq(...items: Node[]): Node {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
}

function set(...items: Node[]): Node {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items);
}

function oid(value: string): Node {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(value).getBytes());
}

function utf8(value: string): Node {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTF8, false, binary(Buffer.from(value, 'utf8')));
}

/** A positive INTEGER from big-endian bytes that are already minimal. */
function integer(bytes: Buffer): Node {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, binary(bytes));
}

function explicit(tag: number, inner: Node): Node {
  return asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, true, [inner]);
}

function bitString(bytes: Buffer, unusedBits: number): Node {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, String.fromCharCode(unusedBits) + binary(bytes));
}

function extension(id: string, critical: boolean, value: Node): Node {
  const parts = [oid(id)];
  if (critical) parts.push(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BOOLEAN, false, '\xff'));
  parts.push(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, binary(der(value))));
  return seq(...parts);
}

/** X.509: UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
function time(date: Date): Node {
  return date.getUTCFullYear() < 2050
    ? asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(date))
    : asn1.create(asn1.Class.UNIVERSAL, asn1.Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(date));
}

/** 128 random bits, positive and minimally encoded (Go's parser rejects other encodings). */
function serialNumber(): Buffer {
  const bytes = crypto.randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x40;
  return bytes;
}

function der(node: Node): Buffer {
  return Buffer.from(asn1.toDer(node).getBytes(), 'binary');
}

/** node-forge works on "binary" strings (one char per byte). */
function binary(bytes: Buffer): string {
  return bytes.toString('binary');
}
