// Calendar feeds of hostile text: every field that reaches a feed, written through the API by an
// author, an editor and a contributor (published by an editor), holds a line break in each of its
// forms followed by a forged event with another event's UID. The anonymous list feed and each
// event's own feed must still hold exactly the events written: the same UIDs, in order, and no
// property or component a feed does not write. URL fields refuse such values, as TEC does.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway, type ApiResponse } from '../support/gateway.js';
import { expectExactFeed, readCalendar } from '../support/ical.js';

/** Every form a line break takes, and the tricks that continue or fold a line. */
const BREAKS = ['\r\n', '\n', '\r', '\u2028', '\u2029', '\u0085', '\v', '\f', '\0', '\r\n ', '\r\n\t', '\n ', '\r\r\n'] as const;
const ROLES = ['author', 'editor', 'contributor'] as const;

const year = new Date().getUTCFullYear() + 1;
const utcSeconds = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`) / 1000;

/** Text that ends its line and forges an event with `victim`'s UID, cancelled, with a property of its own. */
const forge = (br: string, victim: string) =>
  `${br}END:VEVENT${br}BEGIN:VEVENT${br}UID:${victim}${br}SEQUENCE:99${br}SUMMARY:CANCELLED${br}STATUS:CANCELLED${br}X-FORGED:1${br}END:VEVENT${br}BEGIN:VEVENT${br}UID:spare`;

const URL_FIELDS = ['website', 'image'];

describe('calendar feeds of hostile text', () => {
  const gw = useGateway({ tablePrefix: 'e2e-ical-hostile' });
  const host = () => new URL(gw.origin).hostname;
  const uidOf = (e: { id: number; start_date: string; end_date: string }) => `${e.id}-${utcSeconds(e.start_date)}-${utcSeconds(e.end_date)}@${host()}`;
  /** The events written, in the order the list feed shows them. */
  const written: { id: number; uid: string; title: string }[] = [];
  /** The URL values refused, and the break they held. */
  const refused: string[] = [];
  let victim: { id: number; start_date: string; end_date: string; title: string };

  /**
   * POSTs a record; a URL field the API refuses is checked to be refused for what it holds, and
   * the record is written without it.
   */
  async function write(path: string, body: Record<string, unknown>, token: string): Promise<any> {
    let res: ApiResponse = await gw.api('POST', path, { body, token });
    if (res.status === 400) {
      expect(res.body.code, res.text).toBe('rest_invalid_param');
      const names = Object.keys(res.body.data.params);
      expect(
        names.every((n) => URL_FIELDS.includes(n)),
        res.text,
      ).toBe(true);
      for (const n of names) refused.push(String(body[n]));
      res = await gw.api('POST', path, { body: Object.fromEntries(Object.entries(body).filter(([k]) => !names.includes(k))), token });
    }
    expect(res.status, `${path}: ${res.text}`).toBe(201);
    return res.body;
  }

  beforeAll(async () => {
    victim = await write('/events', { title: 'Board meeting', start_date: `${year}-03-01 09:00`, end_date: `${year}-03-01 10:00` }, 'editor');
    written.push({ id: victim.id, uid: uidOf(victim), title: victim.title });
    let n = 0;
    for (const br of BREAKS) {
      const bad = forge(br, uidOf(victim));
      // For fields of a few dozen characters (a ZIP code, a phone number).
      const short = `${br}END:VEVENT${br}X-FORGED:1`;
      // Terms are the editor's to make: each with a hostile name, which authors then link.
      const category = await write('/categories', { name: `Cat ${n}${bad}`, description: bad }, 'editor');
      const tag = await write('/tags', { name: `Tag ${n}${bad}`, description: bad }, 'editor');
      for (const role of ROLES) {
        n++;
        const token = role;
        const venue = await write(
          '/venues',
          {
            venue: `Hall ${n}${bad}`,
            description: bad,
            address: `${n} Loop${bad}`,
            city: `Town${bad}`,
            country: `Land${bad}`,
            province: `Province${bad}`,
            state: `State${bad}`,
            zip: `0${n}${short}`,
            phone: `555${short}`,
            stateprovince: `Region${bad}`,
            website: `https://venue.example/${n}${bad}`,
            image: `https://venue.example/${n}.png${bad}`,
          },
          token,
        );
        let organizer: any;
        const org = {
          organizer: `Org ${n} "quoted"${bad}`,
          description: bad,
          phone: `555${short}`,
          website: `https://org.example/${n}${bad}`,
          image: `https://org.example/${n}.png${bad}`,
        };
        const withMail = await gw.api('POST', '/organizers', { body: { ...org, email: `org${n}@example.com${bad}`, website: '', image: '' }, token });
        if (withMail.status === 201) organizer = withMail.body;
        else {
          // An address with a line break in it is no address.
          expect(withMail.status, withMail.text).toBe(400);
          organizer = await write('/organizers', { ...org, email: `org${n}@example.com` }, token);
        }
        const hour = String(n % 24).padStart(2, '0');
        const day = String(Math.floor(n / 24) + 2).padStart(2, '0');
        const event = await write(
          '/events',
          {
            title: `Event ${n}${bad}`,
            description: `<p>About ${n}${bad}</p><p>${bad}</p>`,
            excerpt: `Short${bad}`,
            slug: `event-${n}${bad}`,
            start_date: `${year}-03-${day} ${hour}:00`,
            end_date: `${year}-03-${day} ${hour}:30`,
            timezone: 'Europe/Vilnius',
            cost: `10${bad}`,
            image: `https://cdn.example/${n}.png${bad}`,
            website: `https://site.example/${n}${bad}`,
            venue: venue.id,
            organizer: [organizer.id],
            categories: [category.id],
            tags: [tag.id],
            ...(role === 'contributor' ? { status: 'draft' } : {}),
          },
          token,
        );
        if (role === 'contributor') {
          const published = await gw.api('PUT', `/events/${event.id}`, { body: { status: 'publish' }, token: 'editor' });
          expect(published.status, published.text).toBe(200);
        }
        written.push({ id: event.id, uid: uidOf(event), title: event.title });
      }
    }
  }, 120_000);

  it('refuses a URL that holds a line break in any form, as TEC does', () => {
    // Six URL values per break and role (two of each event, venue and organizer): all refused.
    for (const value of refused) expect(value).toMatch(/[\x00-\x1F\u0085\u2028\u2029]/);
    expect(refused.length).toBe(BREAKS.length * ROLES.length * 6);
  });

  it('keeps the anonymous list feed to exactly the events written', async () => {
    const res = await gw.api('GET', '/events', { query: { ical: 1 } });
    expect(res.status, res.text).toBe(200);
    expectExactFeed(
      res.text,
      written.map((w) => w.uid),
    );
    const events = readCalendar(res.text).events;
    expect(events.find((e) => e.uid === uidOf(victim))!.summary).toBe('Board meeting');
    // The hostile text is still there, as text of its own event.
    for (const e of events.slice(1)) expect(e.summary).toMatch(/^Event \d+/);
    expect(res.text).not.toMatch(/^(?:SEQUENCE|STATUS|X-FORGED)/m);
  });

  it("keeps each event's own feed to that event", async () => {
    for (const w of written) {
      const res = await gw.api('GET', `/events/${w.id}`, { query: { ical: 1 } });
      expect(res.status, res.text).toBe(200);
      expectExactFeed(res.text, [w.uid]);
    }
  });

  it("keeps an editor's feed, with every status, to the events written", async () => {
    const res = await gw.api('GET', '/events', { query: { ical: 1 }, token: 'editor' });
    expect(res.status, res.text).toBe(200);
    expectExactFeed(
      res.text,
      written.map((w) => w.uid),
    );
  });

  it('refuses the forged image of an author, so the feed keeps the victim as it is', async () => {
    const image = `https://cdn.example/a.png\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:${uidOf(victim)}\r\nSEQUENCE:99\r\nSUMMARY:Board meeting CANCELLED\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:x`;
    const res = await gw.api('POST', '/events', { body: { title: 'Forger', start_date: `${year}-04-01 10:00`, end_date: `${year}-04-01 11:00`, image }, token: 'author' });
    expect(res.status, res.text).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(['image']);
  });

  it('answers URL fields without quotes or angle brackets, in TEC’s JSON and in wp/v2', async () => {
    const made = await write(
      '/events',
      { title: 'Quoted', start_date: `${year}-05-01 10:00`, end_date: `${year}-05-01 11:00`, image: 'https://cdn.example/a"b<c>d.png', website: 'https://site.example/a"b<c>d' },
      'author',
    );
    expect(made.image.url).toBe('https://cdn.example/abd.png');
    expect(made.website).toBe('https://site.example/abd');
    const wp = await gw.api('GET', gw.abs(`/en/wp/v2/tribe_events/${made.id}`), { query: { context: 'edit' }, token: 'editor' });
    expect(wp.status, wp.text).toBe(200);
    expect(wp.body.meta._EventURL).toBe('https://site.example/abd');
  });
});
