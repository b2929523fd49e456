// Every row of the TEC text corpus (test/corpus/tec/text.jsonl) through the presenters: a
// record holding the row's input, as it would be stored, is presented as a single read (create
// and get answers, with json_ld), in a list, and (terms) inside an event, and each value TEC gave
// is compared key by key. Slug rows belong to the slug tests. Rows TEC refused are checked to be
// errors. The few TEC defects this service deliberately does not copy are listed in DIFFERENCES,
// each with its reason and a check that TEC's value is exactly that defect applied to the input.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';
import { renderTermName } from '#lib/contract/html-filters.js';
import { ksesTermDescription } from '#lib/wp/kses/filters.js';
import { presentEvent, presentNestedTerm, presentOrganizer, presentTerm, presentVenue } from '#lib/present/present.js';
import type { EventItem, OrganizerItem, TermItem, VenueItem } from '#lib/store/items.js';
import { escHtml, sanitizeTextField } from '#lib/wp/text.js';
import { stripslashes } from '#lib/wp/php.js';
import { eventRecord } from '#lib/docs/record-samples.js';

const CORPUS = fileURLToPath(new URL('../corpus/tec/text.jsonl', import.meta.url));

interface Row {
  kind: 'event' | 'venue' | 'organizer' | 'category' | 'tag';
  field: string;
  input: string;
  variant: string;
  group: string;
  id?: number;
  create: unknown;
  get: unknown;
  list: unknown;
  list_found: boolean;
  jsonld?: unknown;
  jsonld_key?: string;
  embedded_in_event?: unknown;
  same_create_get_list?: boolean;
  notes?: string[];
}

type Key = 'create' | 'get' | 'list' | 'jsonld' | 'embedded_in_event';
type Values = Partial<Record<Key, unknown>>;

const stamp = { date: '2045-01-01 10:00:00', date_utc: '2045-01-01 10:00:00', modified: '2045-01-01 10:00:00', modified_utc: '2045-01-01 10:00:00' };
const post = { sk: 'POST', lang: 'en' as const, status: 'publish', slug: 'x', author: 1, ...stamp, image: '', version: 1 };
const FILLER = 'Filler';

function eventOf(fields: { title?: string; description?: string; excerpt?: string }): EventItem {
  return eventRecord({
    ...post,
    id: 1,
    title: fields.title ?? FILLER,
    description: fields.description ?? FILLER,
    excerpt: fields.excerpt ?? '',
    start: '2045-01-15 12:00:00',
    end: '2045-01-15 13:00:00',
    timezone: 'UTC',
    showMap: true,
    showMapLink: true,
  });
}

function venueOf(fields: Partial<Record<'venue' | 'address' | 'city' | 'description', string>>): VenueItem {
  return {
    ...post,
    pk: 'POST#2',
    id: 2,
    kind: 'venue',
    website: null,
    title: fields.venue ?? FILLER,
    description: fields.description ?? '',
    excerpt: '',
    address: fields.address ?? '',
    city: fields.city ?? '',
    country: '',
    province: '',
    state: '',
    zip: '',
    phone: '',
    stateprovince: '',
    showMap: true,
    showMapLink: true,
  };
}

function organizerOf(fields: Partial<Record<'organizer' | 'description' | 'email' | 'phone' | 'website', string>>): OrganizerItem {
  return {
    ...post,
    pk: 'POST#3',
    id: 3,
    kind: 'organizer',
    website: fields.website ?? null,
    title: fields.organizer ?? FILLER,
    description: fields.description ?? '',
    excerpt: '',
    phone: fields.phone ?? '',
    email: fields.email ?? '',
  };
}

function termOf(kind: 'category' | 'tag', fields: { name?: string; description?: string }): TermItem {
  // Term names and descriptions are filtered on save, for everyone (lib/contract/html-filters.ts).
  return {
    pk: 'TERM#4',
    sk: 'TERM',
    id: 4,
    taxonomy: kind,
    lang: 'en',
    name: renderTermName(fields.name ?? FILLER),
    slug: 'x',
    description: ksesTermDescription(fields.description ?? ''),
    parent: 0,
    count: 1,
    version: 1,
  };
}

/** The record's fields that carry `input` in this row's variant. */
function carriers(row: Row): string[] {
  const all: Record<Row['kind'], string[]> = {
    event: ['title', 'description', 'excerpt'],
    venue: ['venue', 'address', 'city', 'description'],
    organizer: ['organizer', 'description', 'email', 'phone'],
    category: ['name', 'description'],
    tag: ['name', 'description'],
  };
  if (row.variant === 'A' || row.variant === 'DUP') return all[row.kind];
  if (row.variant === 'B') return ['description'];
  // A-<field>, W (website), E (email), P (phone): the one field.
  return [row.field];
}

function at(value: unknown, dotted: string): unknown {
  let v = value;
  for (const part of dotted.split('.')) {
    if (v === null || typeof v !== 'object' || !(part in v)) return null;
    v = (v as Record<string, unknown>)[part];
  }
  return v === undefined ? null : v;
}

/** What this service answers for a record holding `input` in the row's fields. */
function present(row: Row, input: string): Values {
  const fields = Object.fromEntries(carriers(row).map((f) => [f, input]));
  const field = row.field;
  switch (row.kind) {
    case 'event': {
      const e = eventOf(fields);
      const linked = { venues: new Map(), organizers: new Map(), terms: new Map() };
      const single = presentEvent(e, linked, true);
      return {
        create: at(single, field),
        get: at(single, field),
        list: at(presentEvent(e, linked, false), field),
        jsonld: row.jsonld_key ? at(single, row.jsonld_key) : undefined,
      };
    }
    case 'venue': {
      const v = venueOf(fields);
      const single = presentVenue(v, true);
      return { create: at(single, field), get: at(single, field), list: at(presentVenue(v, false), field), jsonld: row.jsonld_key ? at(single, row.jsonld_key) : undefined };
    }
    case 'organizer': {
      const o = organizerOf(fields);
      const single = presentOrganizer(o, true);
      return { create: at(single, field), get: at(single, field), list: at(presentOrganizer(o, false), field), jsonld: row.jsonld_key ? at(single, row.jsonld_key) : undefined };
    }
    default: {
      const t = termOf(row.kind, fields);
      const shown = presentTerm(t);
      return { create: at(shown, field), get: at(shown, field), list: at(shown, field), embedded_in_event: at(presentNestedTerm(t), field) };
    }
  }
}

function tecValues(row: Row): Values {
  const out: Values = { create: row.create, get: row.get, list: row.list };
  if ('jsonld' in row) out.jsonld = row.jsonld;
  if ('embedded_in_event' in row) out.embedded_in_event = row.embedded_in_event;
  return out;
}

const isError = (v: unknown): v is { error: { status: number; code: string } } => v !== null && typeof v === 'object' && 'error' in v;

// --- the differences this service keeps on purpose -------------------------------------------

interface Difference {
  reason: string;
  applies(row: Row, key: Key): boolean;
  /** TEC's value is exactly the defect applied to the input (so nothing else differs). */
  tecIsTheDefect(row: Row, key: Key, tec: unknown, ours: unknown): boolean;
}

/**
 * Whether `scrambled` is an antispambot() encoding of `plain`: each byte shown as itself or as
 * `&#N;` (`@` always `&#64;`). A character whose bytes all stayed as they were reads as itself;
 * bytes left alone from a character that was partly encoded are invalid UTF-8, which TEC's JSON
 * encoder turned into `?` (one per byte or per run).
 */
function isAntispambotOf(scrambled: unknown, plain: unknown): boolean {
  if (typeof scrambled !== 'string' || typeof plain !== 'string') return false;
  interface Byte {
    value: number;
    char: string;
    first: boolean;
    charEnd: number;
  }
  const bytes: Byte[] = [];
  for (const char of plain) {
    const encoded = Buffer.from(char, 'utf8');
    const charEnd = bytes.length + encoded.length;
    for (const [k, value] of encoded.entries()) bytes.push({ value, char, first: k === 0, charEnd });
  }
  // reachable[j]: positions in `scrambled` after showing the first j bytes.
  let reachable = new Set<number>([0]);
  const next: Set<number>[] = Array.from({ length: bytes.length + 1 }, () => new Set<number>());
  next[0] = reachable;
  for (let j = 0; j < bytes.length; j++) {
    reachable = next[j]!;
    const b = bytes[j]!;
    for (const i of reachable) {
      const entity = `&#${b.value};`;
      if (scrambled.startsWith(entity, i)) next[j + 1]!.add(i + entity.length);
      if (b.value === 64) continue;
      if (b.value < 0x80) {
        if (scrambled[i] === b.char) next[j + 1]!.add(i + 1);
        continue;
      }
      if (b.first && scrambled.startsWith(b.char, i)) next[b.charEnd]!.add(i + b.char.length);
      if (scrambled[i] === '?' || scrambled[i] === '\ufffd') next[j + 1]!.add(i + 1);
      if (!b.first && scrambled[i - 1] === '?') next[j + 1]!.add(i); // part of a run shown as one `?`
    }
  }
  return next[bytes.length]!.has(scrambled.length);
}

let rowsById: Map<string, Row[]> = new Map();

const isScrambledEmail = (row: Row, key: Key) => row.kind === 'organizer' && key === 'jsonld' && row.jsonld_key === 'json_ld.email';

/** Whether TEC's value is `expected`, allowing for antispambot()'s scrambling where TEC applies it. */
function tecShows(row: Row, key: Key, expected: unknown, tec: unknown): boolean {
  return isScrambledEmail(row, key) ? isAntispambotOf(tec, expected) : expected === tec;
}

/** The input of the record that TEC's de-duplication matched, for rows whose create reused one. */
function earlierInput(row: Row): string | undefined {
  if (!row.notes?.some((n) => n.includes('EARLIER record'))) return undefined;
  const earlier = (rowsById.get(`${row.kind}/${row.id}/${row.field}`) ?? []).find((r) => !r.notes);
  return earlier?.input;
}

/** The input TEC's de-duplication later wrote over this record's fields, if any. */
function overwritingInput(row: Row): string | undefined {
  const rows = rowsById.get(`${row.kind}/${row.id}/${row.field}`) ?? [];
  return rows.find((r) => r.notes?.some((n) => n.includes('EARLIER record')))?.input;
}

const POST_KINDS = new Set(['event', 'venue', 'organizer']);
const OVERWRITTEN_FIELDS = new Set(['address', 'city', 'email', 'phone']);

const DIFFERENCES: Difference[] = [
  {
    reason: 'TEC strips backslashes from post fields and venue/organizer meta (`back\\slash` -> `backslash`), losing data; ' + 'this service keeps them (README: "Do not copy")',
    applies: (row) => POST_KINDS.has(row.kind) && row.input.includes('\\'),
    tecIsTheDefect: (row, key, tec) => tecShows(row, key, present(row, stripslashes(row.input))[key], tec),
  },
  {
    reason:
      "TEC's de-duplication overwrites a matched venue's/organizer's address, city, e-mail and phone with the later " +
      "request's; this service returns the match as it is (README: De-duplication)",
    applies: (row, key) => OVERWRITTEN_FIELDS.has(row.field) && (row.same_create_get_list === false ? key !== 'create' : earlierInput(row) !== undefined),
    tecIsTheDefect: (row, key, tec) => {
      const later = overwritingInput(row);
      return later !== undefined && tecShows(row, key, present(row, later)[key], tec);
    },
  },
  {
    reason:
      "TEC's organizer JSON-LD e-mail goes through antispambot(), a different random encoding on every request; " +
      'this service shows the escaped address (esc_html) itself (README: "Do not copy")',
    applies: isScrambledEmail,
    tecIsTheDefect: (row, _key, tec, ours) => ours === escHtml(sanitizeTextField(row.input)) && isAntispambotOf(tec, ours),
  },
];

// --- the run -------------------------------------------------------------------------------------

describe('TEC text corpus', () => {
  let rows: Row[] = [];
  const used = new Map<string, number>();
  const tally = { rows: 0, slug: 0, refused: 0, identical: 0, documented: 0, comparedValues: 0 };

  beforeAll(() => {
    process.env.SITE_URL = 'http://127.0.0.1:8080';
    process.env.API_NAMESPACE = 'tribe';
    resetConfig();
    if (!existsSync(CORPUS)) throw new Error(`The TEC corpus is missing: ${CORPUS}`);
    rows = readFileSync(CORPUS, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Row);
    rowsById = new Map();
    for (const r of rows) {
      const k = `${r.kind}/${r.id}/${r.field}`;
      rowsById.set(k, [...(rowsById.get(k) ?? []), r]);
    }
  });

  afterAll(() => {
    console.info(
      `TEC text corpus: ${tally.rows} rows; ${tally.slug} slug rows left to the slug tests; ${tally.refused} refused by TEC ` +
        `(checked as errors); ${tally.identical} rows identical to TEC in every value (${tally.comparedValues} values); ` +
        `${tally.documented} rows with a documented difference`,
    );
    for (const d of DIFFERENCES) console.info(`  ${used.get(d.reason) ?? 0} values: ${d.reason}`);
  });

  it('has every row of the corpus', () => {
    expect(rows.length).toBe(5445);
  });

  it('renders every field as TEC does, apart from the listed differences', () => {
    const failures: string[] = [];
    for (const row of rows) {
      tally.rows++;
      if (row.field === 'slug') {
        tally.slug++;
        continue;
      }
      if (isError(row.create)) {
        // TEC refused the request: nothing was stored, so nothing is shown afterwards.
        tally.refused++;
        if (typeof row.create.error.status !== 'number' || typeof row.create.error.code !== 'string' || row.get !== null || row.list !== null) {
          failures.push(`${row.kind}.${row.field} ${JSON.stringify(row.input)}: refused row without a proper error`);
        }
        continue;
      }
      const ours = present(row, earlierInput(row) ?? row.input);
      const tec = tecValues(row);
      let documented = false;
      let ok = true;
      for (const key of Object.keys(tec) as Key[]) {
        if (key === 'list' && !row.list_found) continue;
        tally.comparedValues++;
        if (ours[key] === tec[key]) continue;
        const diff = DIFFERENCES.find((d) => d.applies(row, key) && d.tecIsTheDefect(row, key, tec[key], ours[key]));
        if (diff) {
          used.set(diff.reason, (used.get(diff.reason) ?? 0) + 1);
          documented = true;
          continue;
        }
        ok = false;
        failures.push(`${row.kind}.${row.field} [${row.variant}] ${key} ${JSON.stringify(row.input)}: ours ${JSON.stringify(ours[key])}, TEC ${JSON.stringify(tec[key])}`);
      }
      if (ok && documented) tally.documented++;
      else if (ok) tally.identical++;
    }
    expect(failures.slice(0, 40)).toEqual([]);
    expect(failures.length).toBe(0);
  });

  it('needs every listed difference (none is stale)', () => {
    for (const d of DIFFERENCES) expect(used.get(d.reason) ?? 0, d.reason).toBeGreaterThan(0);
  });

  it('keeps the backslashes TEC loses', () => {
    const row = rows.find((r) => r.kind === 'event' && r.field === 'title' && r.input === 'back\\slash')!;
    expect(row.create).toBe('backslash');
    expect(present(row, row.input).create).toBe('back\\slash');
    const desc = rows.find((r) => r.kind === 'event' && r.field === 'description' && r.variant === 'A' && r.input === 'C:\\path\\to')!;
    expect(present(desc, desc.input).create).toBe('<p>C:\\path\\to</p>');
  });

  it('shows the organizer e-mail in JSON-LD escaped but not scrambled', () => {
    const row = rows.find((r) => r.kind === 'organizer' && r.variant === 'E' && r.input === 'a@example.com')!;
    expect(present(row, row.input).jsonld).toBe('a@example.com');
    expect(isAntispambotOf(row.jsonld, 'a@example.com')).toBe(true);
    const quoted = rows.find((r) => r.kind === 'organizer' && r.field === 'email' && r.variant === 'A' && r.input === "Joe's")!;
    expect(present(quoted, quoted.input).jsonld).toBe('Joe&#039;s');
  });
});
