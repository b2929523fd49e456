// One committed change of a record, as the table's stream reports it, and the consumers of
// changes ("triggers"): the stream consumer decodes each stream record into a Change and hands it
// to every trigger of lib/stream/triggers.ts, so that a new derived view is one more row there.
import type { Lang } from '#lib/runtime/config.js';
import type { AnyPost, PostKind } from '#lib/store/items.js';

export type ChangeKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';
export type ChangeAction = 'create' | 'update' | 'trash' | 'restore' | 'delete';

export interface Change {
  /** The stream record's id (unique per change; the idempotency key of what a trigger publishes). */
  eventId: string;
  /** The stream record's sequence number. */
  sequence: string;
  kind: ChangeKind;
  id: number;
  lang: Lang;
  action: ChangeAction;
  /** The record's `version` after the change (before it, for a delete). */
  revision: number;
  /** When the change was committed (ISO 8601, UTC). */
  at: string;
  /** The record before and after, as stored (absent for a create / a delete). */
  old?: Record<string, unknown>;
  new?: Record<string, unknown>;
}

/** A post image of one kind, as the stream decodes it. */
type PostImage<K extends PostKind> = Extract<AnyPost, { kind: K }> & Record<string, unknown>;

const isPostImage = <K extends PostKind>(image: Record<string, unknown> | undefined, kind: K): image is PostImage<K> => image?.kind === kind;

/**
 * A change's image (`old` or `new`) as the record of `kind` it is, by the record's own `kind`
 * (the one the change's kind was decoded from); undefined when absent or of another kind.
 */
export const postImage = <K extends PostKind>(image: Record<string, unknown> | undefined, kind: K): Extract<AnyPost, { kind: K }> | undefined =>
  isPostImage(image, kind) ? image : undefined;

export interface Trigger {
  /** Stable id, e.g. `search`, `cards`, `feed`. */
  id: string;
  /**
   * Triggers that must have applied a change before this one is given it, among those that want
   * it (one that failed holds this one back: the record is retried).
   */
  after?: readonly string[];
  /** Whether this trigger wants the change (cheap; no I/O). */
  wants(change: Change): boolean;
  /**
   * Applies the change; idempotent, because a batch that fails is delivered again. Throwing fails
   * the change's stream record (partial batch failure), which is retried and, after the retries,
   * sent to the dead-letter queue.
   */
  apply(change: Change): Promise<void>;
}
