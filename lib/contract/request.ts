// What an operation receives: the decoded, validated request (built by lib/http/pipeline.ts), and the
// shape of an operation's logic.
import type { Lang } from '#lib/runtime/config.js';
import type { ImportedRecord } from './imported.js';
import type { Operation } from './operations.js';
import type { Args, Params } from './params.js';
import type { Principal } from './principal.js';
import type { Reply } from './reply.js';

/** Every query and body value as sent, decoded (lib/http/codec.ts). */
export type Input = Record<string, unknown>;

/** A request to an operation whose arguments are `A` (by default any operation's). */
export interface RequestContext<A extends Args = Args> {
  op: Operation;
  /** The effective language: `ml_language` when given, else the path segment. */
  lang: Lang;
  /**
   * Path captures, already checked: `id` is a non-negative integer, `slug` and `uuid` non-empty
   * segments, `user` is `me` or a user id.
   */
  path: { id?: number; slug?: string; user?: 'me' | number; uuid?: string };
  /** Declared arguments, validated and coerced, with defaults applied, typed from the argument table. */
  params: Params<A>;
  /** Every query and body value as sent (for undeclared parameters TEC also reads). */
  input: Input;
  principal: Principal | undefined;
  /**
   * Nobody was identified (no credentials sent, no post password given): a read's answer may be
   * kept by shared caches, and may show terms a few seconds old (lib/logic/term-cache.ts).
   */
  shared?: boolean;
  method: string;
  /**
   * A write's `If-Match`, as sent (reads never have it): the logic checks it against the record it
   * reads to change (`requireMatch`), and the write of that record carries the version it checked
   * (lib/store/precondition.ts).
   */
  ifMatch?: string;
  /**
   * An experimental route's `X-TEC-EEA` header as sent (null: none); the logic checks it once it
   * has checked the caller's permission, as TEC does (lib/logic/tec-v1.ts).
   */
  acknowledgement?: string | null;
  /** The caller's address, as the gateway saw it. */
  ip?: string;
  now: Date;
  /**
   * A create's Idempotency-Key with its operation and caller (lib/http/idempotency.ts): every try
   * of it takes the id the first try took (lib/store/create-ids.ts).
   */
  createKey?: string;
  /** A record moved here from another site, which this write stores with what it keeps. */
  imported?: ImportedRecord;
  /**
   * The table's change counter (lib/store/validators.ts) as it is now, when the request reads it
   * anyway for its entity tag (`If-None-Match`, or an operation whose `freshCounter` says so): one
   * read, which the logic may wait for too. It moves after every write is committed and before its
   * client is answered, so what was read at an unchanged counter holds (lib/store/standing-reads.ts).
   */
  counter?: () => Promise<{ stamp: string; last: number }>;
}

export type Logic<A extends Args = Args> = (ctx: RequestContext<A>) => Promise<Reply>;

/** A request to any operation whose parameters include these (for logic several operations share). */
export type RequestWith<P> = Omit<RequestContext, 'params'> & { params: P };
