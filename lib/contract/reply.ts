// What an operation answers: a status, a body and headers, and the record revision it shows.
import type { Revision } from './revision.js';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The record a single-record answer shows: its tag names the record's revision (lib/http/conditional.ts). */
  revision?: Revision;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, body, headers });

/** An answer that shows one record as it now is: its tag names the record's revision. */
export const recordReply = (status: number, body: unknown, record: Revision): Reply => ({ status, body, headers: {}, revision: { id: record.id, version: record.version } });
