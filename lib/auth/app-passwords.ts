// Application passwords as WordPress makes and checks them: 24 random letters and digits, shown
// once in groups of four; anything but letters and digits is ignored when one is presented (so
// spaces and dashes between the groups do not matter), case matters. Only a keyed hash is kept:
// the passwords are long and random, so a fast keyed hash (HMAC-SHA-256) is as safe as a slow one
// and costs microseconds per request (WordPress 6.8 moved to a fast hash for the same reason).
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const PASSWORD_LENGTH = 24;

/** A new password, unformatted: 24 characters drawn uniformly (about 143 bits). */
export function generatePassword(): string {
  let out = '';
  for (let i = 0; i < PASSWORD_LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** `abcd efgh …`: how WordPress shows a new password (its chunk_split by four). */
export const formatPassword = (raw: string) => raw.match(/.{1,4}/g)!.join(' ');

/** What is compared: the letters and digits of what was presented. */
export const normalizePassword = (presented: string) => presented.replace(/[^A-Za-z0-9]/g, '');

/** The stored form: HMAC-SHA-256 under the service's key, base64url. */
export function hashPassword(key: Buffer, presented: string): string {
  return createHmac('sha256', key).update(normalizePassword(presented), 'utf8').digest('base64url');
}

/** Whether two hashes from hashPassword are equal, in constant time (they have one length). */
export function hashesEqual(presentedHash: string, stored: string): boolean {
  const a = Buffer.from(presentedHash);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
