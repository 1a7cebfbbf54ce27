import { createHash } from 'crypto';

/**
 * The first `hexDigits` hex digits of the SHA-256 of `text`: a short, stable
 * stand-in for text too long or too free-form for a name (grant keys and
 * Terraform resource names).
 */
export function shortDigest(text: string, hexDigits: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, hexDigits);
}
