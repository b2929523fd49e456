// What an operation answers: a status, a body and headers, and the record revision it shows.
import type { Revision } from './revision.js';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** A body that is not JSON, sent as it is: its headers name its content type. */
  text?: string;
  /** The record a single-record answer shows: its tag names the record's revision (lib/http/conditional.ts). */
  revision?: Revision;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, body, headers });

/** An answer that shows one record as it now is: its tag names the record's revision. */
export const recordReply = (status: number, body: unknown, record: Revision): Reply => ({ status, body, headers: {}, revision: { id: record.id, version: record.version } });

/** A file that is not JSON (a calendar): sent as it is, with its content type and headers. */
export const textReply = (text: string, contentType: string, headers: Record<string, string> = {}, record?: Revision): Reply => ({
  status: 200,
  body: undefined,
  text,
  headers: { 'content-type': contentType, ...headers },
  ...(record ? { revision: { id: record.id, version: record.version } } : {}),
});
