// The stored shapes of records. Presenters turn them into TEC's JSON; the store writes them.
import type { Lang } from '#lib/runtime/config.js';
import type { StoredCost } from '#lib/domain/cost.js';
import type { Role } from '#lib/contract/principal.js';

export type PostKind = 'event' | 'venue' | 'organizer';
export type Taxonomy = 'category' | 'tag';

export interface PostItem {
  pk: string;
  sk: string;
  id: number;
  kind: PostKind;
  lang: Lang;
  status: string;
  slug: string;
  /** Integer user id; 0 when unknown. */
  author: number;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  /** The title of an event, the name of a venue or organizer. */
  title: string;
  description: string;
  excerpt: string;
  image: string;
  website: string | null;
  /** The status a trashed record had, which decides who may still write it. */
  trashedFrom?: string;
  /** An event of a series trashed because new rules no longer gave its date: rules that give it again restore it. */
  trashedByRules?: true;
  /** Optimistic-locking counter, bumped by every write to the record. */
  version: number;
  /**
   * Events only: bumped by every write that changes what the event's index items, counts, links
   * or cards derive from (not by updates of record-only fields such as the title); the event
   * transaction holds only if it is unchanged since the read (lib/logic/event-writes.ts).
   * Absent until the first such update.
   */
  indexVersion?: number;
  gsi1pk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
}

/**
 * A venue or organizer as it is shown inside events: the record without its keys and counters.
 * Events carry one per linked venue and organizer (see lib/logic/cards.ts).
 */
export type Card = Omit<VenueItem, CardOmitted> | Omit<OrganizerItem, CardOmitted>;
export type CardOmitted = 'pk' | 'sk' | 'gsi1pk' | 'gsi2pk' | 'gsi2sk' | 'version' | 'linkedEvents' | 'shards' | 'shardGen' | 'trashedFrom' | 'trashedByRules';

export interface EventItem extends PostItem {
  kind: 'event';
  start: string;
  end: string;
  utcStart: string;
  utcEnd: string;
  /** As given ('' means the site zone). */
  timezone: string;
  /** The zone's abbreviation an imported event's site stored (TEC shows the stored one); else computed. */
  timezoneAbbr?: string;
  allDay: boolean;
  cost?: StoredCost;
  showMap: boolean;
  showMapLink: boolean;
  /** Set only when true, so that list filters can see it in the keys-only index. */
  hidden?: boolean;
  sticky: boolean;
  featured: boolean;
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
  parent: number;
  /**
   * The cards of the linked venues and organizers, by id, so that presenting the event reads no
   * other record. A venue's or organizer's edit rewrites them (lib/logic/cards.ts).
   */
  cards?: Record<string, Card>;
  /** Set only when the event is password-protected; never presented. */
  password?: string;
  /** A recurring event's RFC 5545 lines (lib/domain/recurrence), the same on every event of its series. */
  recurrence?: string[];
  /** The id of the series' first event, on every event of a series (the first one included). */
  seriesId?: number;
  /**
   * On every event of a series: the start its series' rules gave it, in its zone (RECURRENCE-ID in
   * calendar feeds); an edit that moves the event keeps it.
   */
  occurrence?: string;
  /**
   * On a series' first event: how many occurrences the rules give (itself included), how many
   * exist so far (the stream consumer writes the rest, lib/stream/series-trigger.ts), and the
   * time the rules were expanded at (rules without COUNT or UNTIL end at a horizon from it).
   */
  series?: SeriesProgress;
}

export interface SeriesProgress {
  total: number;
  made: number;
  asOf: string;
  /** The first event of the series this one was split from: its events keep arriving until that split is done. */
  splitFrom?: number;
  /**
   * Set by a delete of the series' events from one of them on (`scope` following or all): every
   * event of the series starting at or after `from` (a UTC wall time; '' for all of them) goes to
   * the trash or is deleted, as `mode` says. The request does what it has time for, the stream
   * consumer the rest (lib/logic/series-scope.ts).
   */
  stop?: SeriesStop;
  /**
   * The last edit by `scope` all: the attributes it gives every event of the series but the one
   * it was sent to (`from`), and when it was made (`at`, a UTC wall time): an event changed since
   * keeps its own. The request writes what its time allows, the stream consumer all of them.
   */
  edit?: SeriesEdit;
  /**
   * The last edit by `scope` following, sent to event `to` of the series: every event of the
   * series from `at` (a UTC wall time) on belongs to the series of `to` since, whose rules are
   * `lines`, and takes `edit` (unless changed since). The request moves what its time allows, the
   * stream consumer all of them (lib/logic/series-split.ts).
   */
  split?: SeriesSplit;
  /**
   * The last change of the series' rules by an edit with scope all, made at `at` (a UTC wall
   * time): every event of the series whose date the rules still give takes them and keeps its
   * id, the others go to the trash, and the dates new to the series are written as occurrences
   * (before an end or split recorded earlier, which stands). The request does what it has time
   * for, the stream consumer the rest (lib/logic/series-rules-edit.ts).
   */
  rules?: SeriesRules;
}

export interface SeriesRules {
  at: string;
  /** The first event's version that recorded them: two changes within a second are two marks. */
  version: number;
  /** The latest date (`occurrence`) of an event of the series then: the writer looks for existing events up to it. */
  through?: string;
}

export interface SeriesSplit {
  at: string;
  to: number;
  lines: string[];
  edit: SeriesEdit;
  /** New rules sent with the split: the new series takes them once every later event has moved to it. */
  rules?: string[];
  /** Set once every later event has moved and the new series has its rules: a later split may be recorded over it. */
  done?: boolean;
}

export interface SeriesEdit {
  set: Partial<EventItem>;
  remove: (keyof EventItem)[];
  from: number;
  at: string;
}

export interface SeriesStop {
  from: string;
  mode: 'trash' | 'delete';
}

/** A series whose rules have no end, in the partition of open series (keys.openSeries). */
export interface OpenSeriesItem {
  pk: string;
  sk: string;
  seriesId: number;
}

/** An event of a series, in its series' partition (keys.seriesMember). */
export interface SeriesMemberItem {
  pk: string;
  sk: string;
  eventId: number;
  utcStart: string;
  /** The start its series' rules gave the event (EventItem.occurrence); absent on items written before it was kept here. */
  occurrence?: string;
  /** The event was deleted: a tombstone, so that it is never created again. */
  gone?: true;
}

export interface VenueItem extends PostItem {
  kind: 'venue';
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  stateprovince: string;
  showMap: boolean;
  showMapLink: boolean;
  geoLat?: number;
  geoLng?: number;
  /** Content revision, bumped by the venue's own writes only; cards carry it. */
  rev?: number;
  /** Events linked with a status other than draft or pending (TEC's has_events); with `shards`, a part of it. */
  linkedEvents?: number;
  /** Shards that carry the rest of `linkedEvents`, and their generation (lib/store/record-shards.ts). */
  shards?: number;
  shardGen?: string;
}

export interface OrganizerItem extends PostItem {
  kind: 'organizer';
  phone: string;
  email: string;
  /** Content revision, bumped by the organizer's own writes only; cards carry it. */
  rev?: number;
  linkedEvents?: number;
  shards?: number;
  shardGen?: string;
}

export type AnyPost = EventItem | VenueItem | OrganizerItem;

export interface TermItem {
  pk: string;
  sk: string;
  id: number;
  taxonomy: Taxonomy;
  lang: Lang;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** Published events that carry the term; kept exact by the event writes' transactions (with `shards`, a part of it). */
  count: number;
  /** Shards that carry the rest of `count`, and their generation (lib/store/record-shards.ts). */
  shards?: number;
  shardGen?: string;
  version: number;
  gsi1pk?: string;
  gsi3pk?: string;
  gsi3sk?: string;
}

/**
 * An index item of an event: a link item in a venue's, organizer's or term's partition, or the
 * featured item in the event's own. It carries what list filters test.
 */
export interface LinkItem {
  pk: string;
  sk: string;
  id: number;
  eventId: number;
  author: number;
  lang: Lang;
  status: string;
  utcStart: string;
  utcEnd: string;
  venues: number[];
  organizers: number[];
  categories: number[];
  tags: number[];
  featured: boolean;
  parent: number;
  gsi2pk?: string;
  gsi2sk?: string;
}

/** A guard or pointer that names one record: a slug's, a term name's or a place title's. */
export interface IdPointer {
  pk: string;
  sk: string;
  id: number;
}

/** A token subject's integer user id. */
export interface UserIdPointer {
  pk: string;
  sk: string;
  userId: number;
}

/** The token subject of a user id or a login. */
export interface SubPointer {
  pk: string;
  sk: string;
  sub: string;
}

/** An id sequence's counter: the last id handed out. */
export interface CounterItem {
  pk: string;
  sk: string;
  value: number;
}

/** The ticket counter of a wanted slug (lib/store/slugs.ts). */
export interface SlugCounterItem {
  pk: string;
  sk: string;
  /** The highest candidate number handed out (1 is the bare slug, 2 is `-2`, …), or the last one claimed. */
  n?: number;
  /** When the last ticket was handed out (ms since the epoch). */
  at?: number;
  /** When the last first free candidate was claimed. */
  c?: number;
}

/** An event written since the stream consumer last indexed it (lib/store/recent-writes.ts). */
export interface RecentWriteItem {
  pk: string;
  sk: string;
  id: number;
  version: number;
  /** The write deleted the event. */
  gone?: true;
}

/** One entry of a language's change log (lib/store/change-log.ts). */
export interface ChangeEntryItem {
  pk: string;
  sk: string;
  kind: 'event' | 'venue' | 'organizer' | 'category' | 'tag';
  id: number;
  action: 'create' | 'update' | 'trash' | 'restore' | 'delete';
  /** When the change was committed (ISO 8601, UTC). */
  at: string;
  /** Whether anonymous callers could read the record just before the change. */
  wasPublic: boolean;
  /** The stream record's id. */
  changeId: string;
  expiresAt: number;
}

/** Claims a stream record for the change log, so that a redelivery appends nothing. */
export interface ChangeGuardItem {
  pk: string;
  sk: string;
  /** The position of the entry appended for it. */
  position: string;
  expiresAt: number;
}

/** A search index entry: an event's index item under one word (lib/stream/search-trigger.ts). */
export type WordItem = Omit<LinkItem, 'eventId'> & { eventId?: number };

/** A suffix of a word in a language's search vocabulary. */
export interface VocabItem {
  pk: string;
  sk: string;
  word: string;
}

/** Per-language figures (lib/store/stats.ts). */
export interface LangStats {
  /** The longest event duration seen, in seconds. */
  seconds?: number;
  /** About the size of all the language's terms together (see `itemBytes`). */
  termBytes?: number;
  /** The venues and organizers split into shards (lib/store/record-shards.ts). */
  splitPlaces?: Set<number>;
}

/** One shard of the table's change counter (lib/store/validators.ts). */
export interface ValidatorItem {
  pk: string;
  sk: string;
  n?: number;
  at?: number;
}

/** The role a credential record or password holds; `none` for a user without one. */
export type StoredRole = Role | 'none';

/** A user's credential record (lib/store/credentials.ts). */
export interface CredentialRecord {
  pk: string;
  sk: 'USER';
  sub: string;
  /**
   * The login as the user's token names it (case kept for display). Set with the user's first
   * password; a record a token made before that holds only the role.
   */
  login?: string;
  email?: string;
  userId?: number;
  /** The role of the user's newest bearer token seen by the API (by its `iat`; see standingRole). */
  role: StoredRole;
  /** That token's `iat` (Unix seconds): a token issued before it cannot change `role`. */
  roleIssuedAt?: number;
}

/** An application password (lib/store/credentials.ts). */
export interface AppPasswordItem {
  pk: string;
  sk: string;
  uuid: string;
  appId: string;
  name: string;
  /** Unix seconds. */
  created: number;
  lastUsed?: number;
  lastIp?: string;
  hash: string;
  /** The role its user had when it was made. */
  role: StoredRole;
}

/** Whether a post is a venue or an organizer. */
export const isPlace = (post: AnyPost | undefined): post is VenueItem | OrganizerItem => post?.kind === 'venue' || post?.kind === 'organizer';

/** The post if it is of `kind`: a post key may hold any kind, so a reader that wants one checks it. */
export const ofKind = <K extends PostKind>(post: AnyPost | undefined, kind: K): Extract<AnyPost, { kind: K }> | undefined =>
  post?.kind === kind ? (post as Extract<AnyPost, { kind: K }>) : undefined;
