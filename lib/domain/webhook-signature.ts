// Webhook signatures as the Standard Webhooks specification makes them (standardwebhooks.com), so that a
// receiver can check a delivery with any of that specification's libraries: an HMAC-SHA256 of
// `<id>.<timestamp>.<body>`, keyed with the secret's decoded bytes, sent as `v1,<base64>` in
// `webhook-signature` beside `webhook-id` (the same on every retry of one message) and
// `webhook-timestamp` (seconds). A secret is `whsec_` and the base64 of 24 random bytes.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';
/** The specification's bounds on a secret's decoded length. */
const SECRET_BYTES = { min: 24, max: 64 } as const;
/** How far a delivery's timestamp may be from the receiver's clock, in seconds (the specification's suggestion). */
export const TOLERANCE_S = 300;

/** A new secret: shown once, when the subscription is made. */
export const newSecret = (): string => `${PREFIX}${randomBytes(SECRET_BYTES.min).toString('base64')}`;

/** The key a secret stands for, or undefined when it is no secret of this form. */
function keyOf(secret: string): Buffer | undefined {
  if (!secret.startsWith(PREFIX)) return undefined;
  const text = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const key = Buffer.from(text, 'base64');
  return key.length >= SECRET_BYTES.min && key.length <= SECRET_BYTES.max ? key : undefined;
}

export const isSecret = (secret: string): boolean => keyOf(secret) !== undefined;

/** The `webhook-signature` value of one message. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = keyOf(secret);
  if (!key) throw new Error('not a webhook secret (whsec_ and the base64 of 24 to 64 bytes)');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers a delivery carries. */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature(secret, id, timestamp, body) };
}

/**
 * Whether a delivery is genuine, as a receiver checks it: one of the space-separated `v1,`
 * signatures matches (compared in constant time), and its timestamp is within `tolerance` seconds of `now`.
 */
export function verify(secret: string, headers: Record<string, string | undefined>, body: string, now: number, tolerance = TOLERANCE_S): boolean {
  const id = headers['webhook-id'];
  const stamp = headers['webhook-timestamp'];
  const given = headers['webhook-signature'];
  if (!id || !stamp || !given || !/^\d{1,12}$/.test(stamp) || !keyOf(secret)) return false;
  const timestamp = Number(stamp);
  if (Math.abs(now - timestamp) > tolerance) return false;
  const expected = Buffer.from(signature(secret, id, timestamp, body).slice(3), 'base64');
  return given.split(' ').some((part) => {
    if (!part.startsWith('v1,')) return false;
    const candidate = Buffer.from(part.slice(3), 'base64');
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}
