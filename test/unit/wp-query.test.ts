// `_fields` and `_envelope` as WordPress applies them (lib/http/wp-query.ts); the expected values
// are the live TEC's answers to the same parameters.
import { describe, expect, it } from 'vitest';
import { envelopeHeaders, fieldTree, filterFields, wantsEnvelope, wpShaped } from '#lib/http/wp-query.js';
import { parseEmbed, wpParseList as parseList } from '#lib/wp/rest-params.js';

const EVENT = {
  id: 8,
  title: 'Habit one',
  start_date_details: { year: '2027', month: '01' },
  categories: [
    { id: 1, name: 'Alpha' },
    { id: 2, name: 'Beta' },
  ],
  venue: { id: 7, venue: 'Hall One', city: 'Vilnius' },
  cost_details: { currency_symbol: '', values: [] },
};

describe('_fields', () => {
  it('parses a list as wp_parse_list does', () => {
    expect(parseList('id, slug,,title  venue')).toEqual(['id', 'slug', 'title', 'venue']);
    expect(parseList(['id', ' slug ', { x: 1 }])).toEqual(['id', 'slug']);
    expect(parseList('')).toEqual([]);
    expect(parseList(undefined)).toEqual([]);
  });

  it('reads _embed as rest_parse_embed_param does', () => {
    expect(parseEmbed(undefined)).toBeUndefined();
    for (const all of ['', 'true', '1', ',']) expect(parseEmbed(all), all).toBe(true);
    expect(parseEmbed('author, wp:term')).toEqual(['author', 'wp:term']);
  });

  it("keeps dotted paths, in the data's order, and a list inside an object loses keys it does not have", () => {
    expect(JSON.stringify(filterFields(EVENT, 'id,venue.venue,categories.name,nope'))).toBe('{"id":8,"categories":[],"venue":{"venue":"Hall One"}}');
    expect(filterFields(EVENT, 'start_date_details.year,cost_details.values')).toEqual({ start_date_details: { year: '2027' }, cost_details: { values: [] } });
  });

  it('answers [] when nothing is kept, and the data as it is for no fields', () => {
    expect(filterFields(EVENT, 'nope')).toEqual([]);
    expect(filterFields(EVENT, 'venue.nope')).toEqual({ venue: [] });
    expect(filterFields(EVENT, '')).toBe(EVENT);
  });

  it('filters each item of a list answer, and keeps list indexes asked for by number', () => {
    expect(filterFields([EVENT, { ...EVENT, id: 9 }], 'id')).toEqual([{ id: 8 }, { id: 9 }]);
    expect(filterFields({ events: [{ id: 1 }, { id: 2 }], total: 2 }, 'events.id,total')).toEqual({ events: [], total: 2 });
    expect(filterFields({ events: [{ id: 1 }, { id: 2 }] }, 'events.1.id')).toEqual({ events: { 1: { id: 2 } } });
    expect(filterFields({ events: [{ id: 1, x: 1 }, { id: 2 }] }, 'events.0.id')).toEqual({ events: [{ id: 1 }] });
  });

  it("builds the field tree with WordPress's quirks: a later parent wins, a child of a kept parent ends the list", () => {
    expect(fieldTree(['venue.venue', 'venue'])).toEqual({ venue: true });
    expect(fieldTree(['venue', 'venue.venue', 'id'])).toEqual({ venue: true });
    expect(filterFields(EVENT, 'start_date_details.year,venue.venue,venue')).toEqual({ start_date_details: { year: '2027' }, venue: EVENT.venue });
  });
});

describe('_envelope', () => {
  it("is asked for by the parameter's presence, with any value", () => {
    expect(wantsEnvelope('_envelope')).toBe(true);
    expect(wantsEnvelope('a=1&_envelope=0')).toBe(true);
    expect(wantsEnvelope('envelope=1')).toBe(false);
    expect(wantsEnvelope(undefined)).toBe(false);
  });

  it('is found when the name is percent-encoded or an array, and not in a value', () => {
    expect(wantsEnvelope('%5Fenvelope=1')).toBe(true);
    expect(wantsEnvelope('a=1&%5f%65nvelope')).toBe(true);
    expect(wantsEnvelope('_envelope[]=1')).toBe(true);
    expect(wantsEnvelope('search=_envelope')).toBe(false);
    expect(wantsEnvelope('search=%20x&per_page=2')).toBe(false);
    expect(wantsEnvelope('categories=concerts&page=2')).toBe(false);
  });

  it("carries the answer's own headers, totals as numbers, Allow last", () => {
    expect(envelopeHeaders({ 'X-TEC-Total': '9', 'X-TEC-TotalPages': '5', 'content-type': 'application/json', etag: '"x"' }, 'GET')).toEqual({
      'X-TEC-Total': 9,
      'X-TEC-TotalPages': 5,
      Allow: 'GET',
    });
    expect(Object.keys(envelopeHeaders({ 'www-authenticate': 'Basic', 'x-wp-total': '2' }, 'POST'))).toEqual(['WWW-Authenticate', 'x-wp-total', 'Allow']);
  });

  it('wraps a success after filtering it, and an error without filtering', () => {
    const ok = wpShaped({ status: 201, body: EVENT, headers: {} }, 'id', '_envelope', 'POST');
    expect(ok).toEqual({ reply: { status: 200, body: { body: { id: 8 }, status: 201, headers: { Allow: 'POST' } }, headers: {} }, enveloped: true });
    const error = { code: 'rest-event-not-found', message: 'Event with ID 1 does not exist.', data: { status: 404 } };
    expect(wpShaped({ status: 404, body: error }, 'id', '_envelope=1', undefined).reply.body).toEqual({ body: error, status: 404, headers: [] });
    const feed = { status: 200, body: undefined, text: 'BEGIN:VCALENDAR', headers: {} };
    expect(wpShaped(feed, 'id', '_envelope', 'GET').reply).toBe(feed);
  });
});
