// Sync cursors: opaque tokens a client hands back to learn what changed since it took one. A cursor
// holds a position in the change log and the time it stands for, signed with a key of this API's
// (HMAC-SHA256), so that a cursor this API did not make is told apart from one it made, and one
// older than the log's retention from one that can still be followed. base64url, so that it goes
// into a query string as it is.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Bytes of the signature kept in a cursor: 128 bits, enough against forgery, short in a URL. */
const TAG_BYTES = 16;
/** A position is the log's own key: printable, bounded. */
const POSITION = /^[\x21-\x7e]{1,200}$/;
/** The longest cursor this API makes (a position of 200 characters), with room: longer is malformed unread. */
const MAX_CURSOR = 400;

export type ReadCursor =
  /** A cursor this API made, within the retention: the log is followed from `position`. */
  | { ok: true; position: string; at: number }
  /** Not a cursor at all (400): a client's mistake in passing it on. */
  | { ok: false; why: 'malformed' }
  /** A cursor this API did not make, or one older than the retention (410): the client syncs from scratch. */
  | { ok: false; why: 'expired' };

const tagOf = (key: Buffer, body: string): Buffer => createHmac('sha256', key).update(body).digest().subarray(0, TAG_BYTES);

/** The cursor of `position`, standing for the time `at` (milliseconds). */
export function makeCursor(position: string, at: number, key: Buffer): string {
  if (!POSITION.test(position)) throw new Error('a log position is 1 to 200 printable characters');
  const body = `${at.toString(36)}.${Buffer.from(position).toString('base64url')}`;
  return `${body}.${tagOf(key, body).toString('base64url')}`;
}

/** What a cursor a client sent stands for, judged at `now` against a retention of `retentionMs`. */
export function readCursor(text: string, key: Buffer, now: number, retentionMs: number): ReadCursor {
  const parts = text.length <= MAX_CURSOR ? text.split('.') : [];
  if (parts.length !== 3 || !parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p))) return { ok: false, why: 'malformed' };
  const [stamp, encoded, tag] = parts as [string, string, string];
  const at = Number.parseInt(stamp, 36);
  const position = Buffer.from(encoded, 'base64url').toString();
  const given = Buffer.from(tag, 'base64url');
  if (!Number.isSafeInteger(at) || !POSITION.test(position) || given.length !== TAG_BYTES) return { ok: false, why: 'malformed' };
  if (!timingSafeEqual(given, tagOf(key, `${stamp}.${encoded}`))) return { ok: false, why: 'expired' };
  return now - at > retentionMs ? { ok: false, why: 'expired' } : { ok: true, position, at };
}
