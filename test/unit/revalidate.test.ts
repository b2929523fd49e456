// The scope of a cheaply revalidated read (lib/http/revalidate.ts): what moves its tag besides the
// table (time, arguments, caller), which reads are not cheap, and the tags of If-None-Match.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { operation } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { heldTag, revalidationScope, scopeDigest, scopedTag, timeKey } from '#lib/http/revalidate.js';
import { settleMs } from '#lib/store/validators.js';
import { resetConfig } from '#lib/runtime/config.js';

const request = (opId: string, params: Record<string, unknown> = {}, extra: Partial<RequestContext> = {}): RequestContext =>
  ({
    op: operation(opId),
    lang: 'en',
    path: {},
    params,
    input: {},
    principal: undefined,
    shared: true,
    method: 'GET',
    now: new Date('2026-03-10T12:00:00Z'),
    ...extra,
  }) as RequestContext;

const event = (rawQueryString = '', pathParameters: Record<string, string> = { lang: 'en' }) => ({ rawQueryString, pathParameters }) as unknown as APIGatewayProxyEventV2;

describe('timeKey', () => {
  it('moves a list of events at a new UTC day and a new day in the site zone, and not within them', () => {
    const req = request('events.list');
    const noon = timeKey(req, new Date('2026-03-10T12:00:00Z'));
    expect(timeKey(req, new Date('2026-03-10T00:00:01Z'))).toBe(noon);
    expect(timeKey(req, new Date('2026-03-10T23:59:59Z'))).toBe(noon);
    expect(timeKey(req, new Date('2026-03-11T00:00:00Z'))).not.toBe(noon);
    expect(timeKey(req, new Date('2026-03-09T23:59:59Z'))).not.toBe(noon);
  });

  it('leaves out lists whose dates are relative, and keeps fixed dates', () => {
    for (const relative of ['now', 'today', 'tomorrow', '+1 week', 'next monday']) {
      expect(timeKey(request('events.list', { start_date: relative }), new Date()), relative).toBeUndefined();
      expect(timeKey(request('events.list', { ends_after: relative }), new Date()), relative).toBeUndefined();
    }
    for (const fixed of ['2026-05-01', '2026-05-01 10:00:00', '2026-05-01T10:00:00Z']) {
      expect(timeKey(request('events.list', { start_date: fixed }), new Date()), fixed).toBeDefined();
    }
  });

  it('leaves out venues and organizers with upcoming events, and no other read depends on the time', () => {
    expect(timeKey(request('venues.list', { only_with_upcoming: true }), new Date())).toBeUndefined();
    expect(timeKey(request('organizers.list', { only_with_upcoming: true }), new Date())).toBeUndefined();
    expect(timeKey(request('venues.list', { only_with_upcoming: false }), new Date())).toBe('');
    expect(timeKey(request('events.get'), new Date())).toBe('');
  });
});

describe('revalidationScope', () => {
  it('differs with the query, the language, the link form and the caller', () => {
    const base = revalidationScope(request('events.list'), event('per_page=5'), 'lang')!;
    expect(base).toBeDefined();
    expect(revalidationScope(request('events.list'), event('per_page=5'), 'lang')).toBe(base);
    const others = [
      revalidationScope(request('events.list'), event('per_page=6'), 'lang'),
      revalidationScope(request('events.list'), event('per_page=5&_envelope'), 'lang'),
      revalidationScope(request('events.list', {}, { lang: 'lt' }), event('per_page=5'), 'lang'),
      revalidationScope(request('events.list'), event('per_page=5'), 'wp-json'),
      revalidationScope(request('events.list', {}, { shared: false, principal: { sub: 'a', role: 'editor' } }), event('per_page=5'), 'lang'),
      revalidationScope(request('events.list', {}, { shared: false, principal: { sub: 'b', role: 'editor' } }), event('per_page=5'), 'lang'),
      revalidationScope(request('events.list', {}, { shared: false, principal: { sub: 'a', role: 'author' } }), event('per_page=5'), 'lang'),
      revalidationScope(request('events.list', {}, { shared: false }), event('per_page=5'), 'lang'),
      revalidationScope(request('events.list', {}, { now: new Date('2026-03-11T12:00:00Z') }), event('per_page=5'), 'lang'),
      revalidationScope(request('events.get'), event('', { lang: 'en', id: '5' }), 'lang'),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });

  it('is not made for writes, for reads of other data, or for reads that depend on the time at any second', () => {
    expect(revalidationScope(request('events.list', {}, { method: 'POST' }), event(), 'lang')).toBeUndefined();
    expect(revalidationScope(request('appPasswords.list'), event(), 'lang')).toBeUndefined();
    expect(revalidationScope(request('root.site'), event(), 'lang')).toBeUndefined();
    expect(revalidationScope(request('events.list', { start_date: 'now' }), event('start_date=now'), 'lang')).toBeUndefined();
    expect(revalidationScope(request('events.list', {}, { method: 'HEAD' }), event(), 'lang')).toBeDefined();
  });
});

describe('tags', () => {
  const digest = scopeDigest('scope', '1.0.0');
  it('moves with the counter', () => {
    expect(scopeDigest('scope', '1.0.1')).not.toBe(digest);
    expect(digest).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('keeps the revision of a record, and finds a held tag weak or strong, in a list', () => {
    const record = scopedTag(digest, { id: 7, version: 3 });
    expect(record).toBe(`"7.3.${digest}"`);
    expect(heldTag(`W/${record}`, digest)).toBe(record);
    expect(heldTag(`"x", ${scopedTag(digest)}`, digest)).toBe(`"${digest}"`);
    expect(heldTag('"7.3.other"', digest)).toBeUndefined();
    expect(heldTag('*', digest)).toBeUndefined();
    expect(heldTag(undefined, digest)).toBeUndefined();
  });
});

describe('settleMs', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfig();
  });

  it('covers the lag of reads and the age of kept terms, whichever is longer, and the clocks', () => {
    delete process.env.REVALIDATE_SETTLE_SECONDS;
    process.env.TERM_CACHE_SECONDS = '5';
    resetConfig();
    expect(settleMs()).toBe(11_000);
    process.env.TERM_CACHE_SECONDS = '30';
    resetConfig();
    expect(settleMs()).toBe(31_000);
    process.env.REVALIDATE_SETTLE_SECONDS = '0';
    process.env.TERM_CACHE_SECONDS = '0';
    resetConfig();
    expect(settleMs()).toBe(1_000);
  });
});
