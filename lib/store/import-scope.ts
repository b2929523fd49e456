// A record moved here from another site keeps what the site gave it: its id, its slug and the
// time it was last modified. The importer runs each write of such a record within `asImported`,
// and the ordinary create and update paths take these values instead of new ones (ids.ts,
// slugs.ts, lib/logic/common.ts, lib/logic/places.ts): every other item the write makes (indexes,
// counts, cards, guards) comes from the same code as an API write's.
import { scopedValue } from '#lib/runtime/scope.js';
import type { Sequence } from './keys.js';

export interface ImportedRecord {
  /** The sequence the record's id belongs to, and the id it keeps. */
  sequence: Sequence;
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
}

export type ClearableText = 'description' | 'excerpt' | 'image';

const imported = scopedValue<ImportedRecord>('imported record');

/** Runs `fn`, one write of an imported record, with that record's given values. */
export const asImported = <T>(record: ImportedRecord, fn: () => Promise<T>): Promise<T> => imported.run(record, fn);

/** The imported record the current write stores, if it stores one. */
export const importedRecord = (): ImportedRecord | undefined => imported.get();

/** An update's kept text of record `id`: empty when the imported record's site has it empty. */
export const keptText = (id: number, field: ClearableText, old: string | undefined): string => {
  const given = imported.get();
  return given?.id === id && given.cleared?.includes(field) ? '' : (old ?? '');
};
