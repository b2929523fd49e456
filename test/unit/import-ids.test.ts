// Ids and slugs a site may hand the import that WordPress cannot hold: ids that are no positive
// whole number (or none JavaScript holds exactly) are refused record by record, with the reason;
// slugs are cleaned as WordPress cleans a given slug.
import { describe, expect, it } from 'vitest';
import { mapPost, mapTerm, mapUser } from '#lib/import/live-source.js';
import { cleanSlug, idRefusal, recordRefusal, refRefusal, type SitePost, type SiteTerm } from '#lib/import/records.js';
import { postBody, termBody } from '#lib/import/writer.js';
import { wxrRecords } from '#lib/import/wxr-source.js';
import { emptyWxrPost } from '#lib/import/wxr-reader.js';
import type { WxrEntry } from '#lib/import/wxr-types.js';

describe('idRefusal', () => {
  it('takes the ids WordPress and this API both hold', () => {
    for (const id of [1, 42, Number.MAX_SAFE_INTEGER, '1', '007', String(Number.MAX_SAFE_INTEGER)]) expect(idRefusal(id)).toBeUndefined();
  });

  it('refuses 0, negatives, fractions, text and what no number holds exactly, saying why', () => {
    expect(idRefusal(0)).toBe("id 0 is not a positive whole number: WordPress's ids start at 1");
    expect(idRefusal(-5)).toMatch(/^id -5 is not a positive whole number/);
    expect(idRefusal(1.5)).toBe('id "1.5" is not a whole number');
    expect(idRefusal(Number.NaN)).toMatch(/not a whole number/);
    expect(idRefusal('12a')).toBe('id "12a" is not a whole number');
    expect(idRefusal('')).toBe('no id');
    expect(idRefusal('9007199254740993')).toBe('id 9007199254740993 is above 9007199254740991 (2^53 − 1), the highest id this API holds');
    expect(idRefusal(2 ** 53)).toMatch(/^id 9007199254740992 is above 9007199254740991/);
    expect(idRefusal('18446744073709551616')).toBe('id 18446744073709551616 is above 18446744073709551615, the highest id WordPress holds');
  });

  it('a link: none (0, "0", "") is no link; a link to an impossible id is refused', () => {
    for (const none of [0, '0', '', undefined, null]) expect(refRefusal('venue', none)).toBeUndefined();
    expect(refRefusal('venue', 12)).toBeUndefined();
    expect(refRefusal('venue', '-5')).toBe("links venue -5: id -5 is not a positive whole number: WordPress's ids start at 1");
    expect(refRefusal('category', 2 ** 53 + 2)).toMatch(/^links category 9007199254740994: id 9007199254740994 is above/);
  });
});

describe('the live reader marks what the writer refuses', () => {
  const post = { id: 10, slug: 's', status: 'publish', author: 1, title: { raw: 'T' }, content: { raw: '' }, excerpt: { raw: '' }, meta: {} };
  it('a record with an impossible id, of every kind', () => {
    expect(recordRefusal(mapUser({ id: -5, username: 'x' }))).toMatch(/^id -5 /);
    expect(recordRefusal(mapTerm({ id: 0, name: 'x', slug: 'x' }, 'tag'))).toMatch(/^id 0 /);
    expect(recordRefusal(mapPost('venue', { ...post, id: 2 ** 53 + 2 }, ''))).toMatch(/^id 9007199254740994 is above 9007199254740991/);
    expect(recordRefusal(mapPost('event', { ...post, id: '12a' }, ''))).toBe('id "12a" is not a whole number');
    expect(recordRefusal(mapPost('event', post, ''))).toBeUndefined();
  });

  it('a record linking an impossible id: venue, organizer, category, tag, parent, author', () => {
    const ev = (over: Record<string, unknown>) => recordRefusal(mapPost('event', { ...post, ...over }, ''));
    expect(ev({ meta: { _EventVenueID: [-5] } })).toMatch(/^links venue -5: id -5 is not a positive/);
    expect(ev({ meta: { _EventOrganizerID: [3, 2 ** 53 + 2] } })).toMatch(/^links organizer 9007199254740994: /);
    expect(ev({ tribe_events_cat: [4, -1] })).toMatch(/^links category -1: /);
    expect(ev({ tags: [1.5] })).toMatch(/^links tag 1.5: id "1.5" is not a whole number/);
    expect(ev({ author: -2 })).toMatch(/^links author -2: /);
    expect(ev({ meta: { _EventVenueID: [0] }, author: 0 })).toBeUndefined();
    expect(recordRefusal(mapTerm({ id: 5, name: 'x', slug: 'x', parent: -3 }, 'category'))).toMatch(/^links parent -3: /);
  });
});

describe('the export reader marks what the writer refuses', () => {
  const item = (id: number, idText: string | undefined, meta: [string, string][] = [], type = 'tribe_events') => ({
    ...emptyWxrPost(),
    id,
    ...(idText !== undefined ? { idText } : {}),
    type,
    title: `Item ${idText ?? id}`,
    slug: `item-${id}`,
    status: 'publish',
    meta,
  });
  it('with the id as the file wrote it, and links of meta rows', async () => {
    async function* file(): AsyncIterable<WxrEntry> {
      yield { kind: 'author', id: 0, login: 'zero', email: '', displayName: '', firstName: '', lastName: '' };
      yield { kind: 'term', id: -4, taxonomy: 'post_tag', slug: 'neg', name: 'Neg', description: '', parentSlug: '' };
      yield { kind: 'term', id: 0, taxonomy: 'post_tag', slug: 'no-id', name: 'No id', description: '', parentSlug: '' };
      yield item(9007199254740992, '9007199254740993');
      yield item(-5, undefined, [], 'tribe_venue');
      yield item(11, undefined, [['_EventVenueID', '-5']]);
      yield item(12, undefined, [['_EventOrganizerID', '99999999999999999999']]);
      yield { ...item(13, undefined, [['_EventVenueID', '0']]), terms: [{ taxonomy: 'post_tag', slug: 'neg', name: 'Neg' }] };
    }
    const records = await wxrRecords(file());
    const why = Object.fromEntries(records.map((r) => [`${r.kind} ${r.idText ?? r.id}`, recordRefusal(r)]));
    expect(why).toEqual({
      'user 0': "id 0 is not a positive whole number: WordPress's ids start at 1",
      'tag -4': "id -4 is not a positive whole number: WordPress's ids start at 1",
      // A term defined without an id is found or made by its slug, as WXR 1.0's are.
      'tag 0': undefined,
      'event 9007199254740993': 'id 9007199254740993 is above 9007199254740991 (2^53 − 1), the highest id this API holds',
      'venue -5': "id -5 is not a positive whole number: WordPress's ids start at 1",
      'event 11': "links venue -5: id -5 is not a positive whole number: WordPress's ids start at 1",
      'event 12': 'links organizer 99999999999999999999: id 99999999999999999999 is above 18446744073709551615, the highest id WordPress holds',
      'event 13': undefined,
    });
    // A link to a refused term goes by its slug (left out unless the calendar holds one), never by its id.
    expect((records.find((r) => r.id === 13) as SitePost).fields.tags).toEqual(['neg']);
  });
});

describe('cleanSlug: a slug as WordPress stores a given one', () => {
  it('leaves a clean slug alone', () => {
    for (const s of ['concert', 'event-2', 'a_b-c', 'x__trashed']) expect(cleanSlug(s)).toBe(s);
  });
  it('takes out line ends, control characters, spaces, quotes and other characters WordPress does not store', () => {
    expect(cleanSlug('bad\r\nslug')).toBe('badslug');
    expect(cleanSlug('tab\there\u0000\u001f\u007f')).toBe('tabhere');
    expect(cleanSlug(' Two  Words ')).toBe('two-words');
    expect(cleanSlug('"quoted"<b>&amp;</b>#?+')).toBe('quoted');
    expect(cleanSlug('a.b/c')).toBe('a-b-c');
    expect(cleanSlug('Ąžuolas')).toBe('azuolas');
  });
  it('keeps percent-encoded letters (how WordPress keeps other scripts) as the site has them, so that its URLs stay', () => {
    expect(cleanSlug('%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82')).toBe('%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82');
    expect(cleanSlug('%d7%a2%d7%91-quote-5')).toBe('%d7%a2%d7%91-quote-5');
    // Not WordPress's stored form (upper case, a stray %, a control character): sanitised, its letters read.
    expect(cleanSlug('%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82')).toBe('privet');
    expect(cleanSlug('%zz-50%')).toBe('zz-50');
    expect(cleanSlug('%d0%bf\r\n')).toBe('p');
  });
  it('nothing usable: none sent, so the record takes one from its title or name', () => {
    const event = {
      kind: 'event',
      id: 5,
      slug: '\r\n\t',
      status: 'publish',
      author: 1,
      date: '',
      date_utc: '',
      modified: '',
      modified_utc: '',
      password: '',
      fields: { title: 'T' },
    } as SitePost;
    expect(postBody(event, true)).not.toHaveProperty('slug');
    expect(postBody({ ...event, slug: 'ok\r\n__trashed', status: 'trash' }, true).slug).toBe('ok');
    const tag: SiteTerm = { kind: 'tag', id: 3, name: 'Name', slug: '\u0000', description: '', parent: 0 };
    expect(termBody(tag)).toEqual({ name: 'Name' });
    expect(termBody({ ...tag, slug: 'Jazz\nNight' })).toEqual({ name: 'Name', slug: 'jazznight' });
  });
});
