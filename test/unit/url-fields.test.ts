// URL arguments are saved as sanitised URLs: WordPress's esc_url_raw() after TEC's own cleaning,
// with what TEC refuses refused. The expected values are the answers of WordPress 6.8's
// esc_url_raw() and of a live TEC 6.17.2 (its stored `_EventURL`, `_VenueURL` and
// `_OrganizerWebsite`, read back with `context=edit`); where this API differs, the table says why.
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '#lib/contract/operations.js';
import { escUrlRaw, specialcharsDecode } from '#lib/wp/entities.js';
import { LIVE } from '../support/url-samples.js';

/** WordPress 6.8's esc_url_raw(): input, answer. */
const ESC_URL_RAW: [string, string][] = [
  [`https://example.com/a"b<c>d'e`, "https://example.com/abcd'e"],
  ['https://example.com/{x}|^`\\\\', 'https://example.com/x|'],
  ['https://example.com/a%0d%0ab', 'https://example.com/ab'],
  ['https://example.com/a%0%0dDb', 'https://example.com/ab'],
  ['https://example.com/a[b]', 'https://example.com/a%5Bb%5D'],
  ['https://example.com/?a=1&amp;b=2', 'https://example.com/?a=1&amp;b=2'],
  ['HTTPS://EXAMPLE.COM/A', 'https://EXAMPLE.COM/A'],
  ['ftp://example.com/x', 'ftp://example.com/x'],
  ['javascript:alert(1)', ''],
  ['https://example.com/a b', 'https://example.com/a%20b'],
  ['https://example.com/a\tb\r\nc', 'https://example.com/abc'],
  ['https://example.com/ä', 'https://example.com/ä'],
  ['example.com/x', 'http://example.com/x'],
  ['https://example.com/%%', 'https://example.com/%%'],
  ['https://[::1]:8080/a[b]?c]', 'https://[::1]:8080/a%5Bb%5D?c%5D'],
  ['https;//example.com/x', 'https://example.com/x'],
  ['https://user:pw@example.com:81/p[1]', 'https://user:pw@example.com:81/p%5B1%5D'],
  // Kept by WordPress: bytes from 0x80 up, so NEL and the line separator too (this API refuses them).
  ['https://example.com/a\u2028b\u0085c', 'https://example.com/a\u2028b\u0085c'],
  ['//example.com/x', '//example.com/x'],
  ['/rel/path', '/rel/path'],
  ['https://example.com/<script>x</script>y', 'https://example.com/scriptx/scripty'],
];

describe('esc_url_raw', () => {
  it.each(ESC_URL_RAW)('cleans %j as WordPress 6.8 does', (input, expected) => {
    expect(escUrlRaw(input)).toBe(expected);
  });

  it("decodes what PHP's htmlspecialchars_decode( ENT_QUOTES ) decodes, once", () => {
    expect(specialcharsDecode('&#0039; &#39; &#x27; &#x0027; &amp;amp; &AMP; &apos; &quot;&lt;&gt;')).toBe("' ' ' ' &amp; &AMP; &apos; \"<>");
  });
});

/** An argument's value once its schema took it, or undefined when it refused it. */
const take = (schema: z.ZodMiniType, value: unknown): unknown => {
  const result = z.safeParse(schema, value);
  return result.success ? result.data : undefined;
};

const URL_ARGS = OPERATIONS.flatMap((op) =>
  Object.entries(op.args)
    .filter(([, arg]) => !arg.path && take(arg.schema, 'https://example.com/a"b') === 'https://example.com/ab')
    .map(([name, arg]) => ({ id: `${op.id} ${name}`, schema: arg.schema })),
);

describe('URL arguments', () => {
  it('are the website and image of events, venues and organizers, in every write', () => {
    const names = new Set(URL_ARGS.map((a) => a.id.split(' ')[1]));
    expect([...names].sort()).toEqual(['image', 'website']);
    const ops = new Set(URL_ARGS.map((a) => a.id.split(' ')[0]));
    for (const kind of ['events', 'venues', 'organizers'])
      for (const name of ['create', 'update', 'updateBySlug']) expect(ops.has(`${kind}.${name}`), `${kind}.${name}`).toBe(true);
    // tec/v1 takes a venue's and an organizer's website (an event's is not among its fields).
    for (const kind of ['tecVenues', 'tecOrganizers']) for (const name of ['create', 'update']) expect(ops.has(`${kind}.${name}`), `${kind}.${name}`).toBe(true);
    expect(URL_ARGS.length).toBe(22);
  });

  it.each(LIVE)('save %j as the tables say (TEC stores %j)', (input, _tec, expected) => {
    // An image takes http and https alone, as TEC's (which it fetches) does.
    const image = expected === undefined || expected === '' || /^https?:/.test(expected) ? expected : undefined;
    for (const { id, schema } of URL_ARGS) expect(take(schema, input), id).toBe(id.endsWith(' image') ? image : expected);
  });

  it('keep no character that could end a line, and give their own value back unchanged', () => {
    for (const [input] of [...LIVE, ...ESC_URL_RAW]) {
      for (const { schema } of URL_ARGS) {
        const saved = take(schema, input);
        if (typeof saved !== 'string') continue;
        expect(saved).not.toMatch(/[\x00-\x20\x7F-\x9F\u2028\u2029"<>\\]/);
        expect(take(schema, saved)).toBe(saved);
      }
    }
  });

  it('refuse what is no string', () => {
    for (const { schema } of URL_ARGS) for (const value of [1, null, ['https://example.com/'], { url: 'https://example.com/' }]) expect(take(schema, value)).toBeUndefined();
  });
});
