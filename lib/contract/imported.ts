// A record moved here from another site keeps what the site gave it: its id, its slug and the
// time it was last modified. The importer (lib/import/writer.ts) invokes each write of such a
// record with it on the invocation's context, which no HTTP request can set; the pipeline puts it
// on the request (`RequestContext.imported`), and the ordinary create and update paths take these
// values instead of new ones: every other item the write makes (indexes, counts, cards, guards)
// comes from the same code as an API write's.
export interface ImportedRecord {
  /** The sequence the record's id belongs to, and the id it keeps. */
  sequence: 'post' | 'term' | 'user';
  id: number;
  /** The slug it keeps (not made unique with a suffix: the site's slugs are unique already). */
  slug?: string;
  /** Its last modification, as `YYYY-MM-DD HH:MM:SS` in the site zone and in UTC. */
  modified?: { modified: string; modified_utc: string };
  /**
   * An event's start and end in UTC as the site stored them: a wall time a zone's clocks pass
   * twice (when they go back) is the site's choice of the two, not this API's.
   */
  utc?: { start: string; end: string };
  /**
   * The texts the site holds empty. TEC's routes refuse an empty event description or excerpt
   * (400) and ignore an empty venue or organizer description, so no request clears one: an
   * imported update that names a text here stores it empty.
   */
  cleared?: readonly ClearableText[];
  /**
   * An event's currency as the site stored it (`_EventCurrencySymbol`, `_EventCurrencyCode`,
   * `_EventCurrencyPosition`, '' where never written), which TEC shows instead of what its cost
   * text suggests and which no request field sets.
   */
  currency?: { symbol: string; code: string; position: string };
  /** An event's zone abbreviation as the site stored it (`_EventTimezoneAbbr`, '' where never written). */
  timezoneAbbr?: string;
  /**
   * Nothing else reads the table while the import runs (a DynamoDB Local the command started for
   * itself), and the importer indexes every event for search before it ends. So the write leaves
   * out what serves other readers meanwhile: its move of the table's change counter
   * (lib/store/validators.ts: the importer moves it once, at the end) and an event's recent-write
   * item (lib/store/recent-writes.ts: searches judge an event by it until it is indexed). A commit
   * and an item less per record.
   */
  unobserved?: true;
}

export type ClearableText = 'description' | 'excerpt' | 'image';

/** The invocation context's field that carries an imported record (set by the local invoker only). */
export interface ImportingContext {
  imported?: ImportedRecord;
}
