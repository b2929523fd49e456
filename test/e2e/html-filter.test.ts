// Authors and contributors cannot post unfiltered HTML: what they save goes through WordPress's
// kses (lib/wp/kses/) as on a WordPress site, where only editors and administrators have
// `unfiltered_html`. Term descriptions are filtered for everyone, as WordPress does.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../support/gateway.js';
import { expectInvalidParams } from '../support/expect.js';

const gw = useGateway();
const at = (days: number) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)} 10:00:00`;

const HOSTILE = '<script>alert(1)</script><p onclick="steal()">Hi <a href="javascript:alert(2)">there</a></p><img src="x.png" onerror="alert(3)">';

/** Nothing a browser would run. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script|<iframe|<svg|\son\w+\s*=|javascript:/i);
}

describe('authors and contributors', () => {
  for (const role of ['author', 'contributor'] as const) {
    it(`${role}: event title, description and excerpt are filtered as WordPress filters them`, async () => {
      const token = await gw.token(role, `html-${role}`);
      const res = await gw.api('POST', '/events', {
        token,
        body: {
          title: `<b>Bold</b> <div onclick="x">title</div><script>t()</script>`,
          description: HOSTILE,
          excerpt: HOSTILE,
          start_date: at(4),
          end_date: at(4),
          status: 'draft',
        },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.title).toBe('<b>Bold</b> titlet()');
      // kses on save, then the_content on the way out (wpautop, decoding="async" on images).
      expect(res.body.description).toBe('<p>alert(1)</p>\n<p>Hi <a href="alert(2)">there</a></p>\n<p><img decoding="async" src="x.png"></p>');
      expectInert(res.body.description);
      expectInert(res.body.excerpt);
      // The stored record is filtered, not only the answer.
      const read = await gw.api('GET', `/events/${res.body.id}`, { token });
      expect(read.body.title).toBe(res.body.title);
      expectInert(read.body.description);

      const update = await gw.api('PATCH', `/events/${res.body.id}`, { token, body: { description: '<iframe src="https://evil.example"></iframe>Updated' } });
      expect(update.status, update.text).toBe(200);
      expect(update.body.description).toContain('Updated');
      expectInert(update.body.description);
    });
  }

  it('venues and organizers, alone and inline in an event, are filtered too', async () => {
    const token = await gw.token('author', 'html-places');
    const venue = await gw.api('POST', '/venues', {
      token,
      body: { venue: '<em>Hall</em><script>x()</script>', address: '<b onmouseover="x()">Main</b> St', description: HOSTILE },
    });
    expect(venue.status, venue.text).toBe(201);
    expect(venue.body.venue).toBe('<em>Hall</em>x()');
    // kses on save keeps <b>; venue fields are shown through sanitize_text_field, which strips tags, as TEC does.
    expect(venue.body.address).toBe('Main St');
    expectInert(venue.body.description);
    const organizer = await gw.api('POST', '/organizers', { token, body: { organizer: 'Org<svg onload="x()"></svg>', description: HOSTILE } });
    expect(organizer.status, organizer.text).toBe(201);
    expect(organizer.body.organizer).toBe('Org');
    const event = await gw.api('POST', '/events', {
      token,
      body: {
        title: 'Inline',
        start_date: at(5),
        end_date: at(5),
        venue: { venue: 'Inline <script>v()</script>hall', description: HOSTILE },
        organizer: [{ organizer: 'Inline org', description: HOSTILE }],
      },
    });
    expect(event.status, event.text).toBe(201);
    expect(event.body.venue.venue).toBe('Inline v()hall');
    expectInert(event.body.venue.description);
    expectInert(event.body.organizer[0].description);
  });

  it('a title that is only markup is empty once filtered', async () => {
    const token = await gw.token('author', 'html-empty');
    expectInvalidParams(await gw.api('POST', '/events', { token, body: { title: '<img src="x.png">', start_date: at(6), end_date: at(6) } }), 'title');
  });

  it('C0 control characters are removed, as kses removes them', async () => {
    const token = await gw.token('author', 'html-controls');
    const res = await gw.api('POST', '/events', { token, body: { title: 'Bell\u0007 and\u001f unit', start_date: at(6), end_date: at(6) } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.title).toBe('Bell and unit');
  });
});

describe('editors', () => {
  it('keep their HTML, as users with unfiltered_html do, inline records included', async () => {
    const res = await gw.api('POST', '/events', {
      token: 'editor',
      body: {
        title: 'Editor <span class="x">title</span>',
        description: '<iframe src="https://video.example/1"></iframe><p onclick="track()">x</p>',
        start_date: at(7),
        end_date: at(7),
        venue: { venue: 'Ed hall', description: '<iframe src="https://map.example"></iframe>' },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.title).toBe('Editor <span class="x">title</span>');
    expect(res.body.description).toContain('<iframe src="https://video.example/1"></iframe>');
    expect(res.body.description).toContain('onclick="track()"');
    expect(res.body.venue.description).toContain('<iframe src="https://map.example"></iframe>');
  });

  it('term descriptions are filtered even for editors, as WordPress does', async () => {
    const res = await gw.api('POST', '/categories', { token: 'editor', body: { name: 'Filtered', description: '<b onclick="x()">bold</b> & <script>s()</script><p>para</p>' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.description).toBe('<b>bold</b> &amp; s()para');
  });
});

describe('term names', () => {
  it('are saved as WordPress saves them, for everyone: tags stripped, & as an entity, and unique on that', async () => {
    const first = await gw.api('POST', '/tags', { token: 'editor', body: { name: 'line<br>break' } });
    expect(first.status, first.text).toBe(201);
    expect(first.body.name).toBe('linebreak');
    // The same name once saved: WordPress's term_exists.
    const again = await gw.api('POST', '/tags', { token: 'editor', body: { name: 'line<br />break' } });
    expect(again.status, again.text).toBe(400);
    expect(again.body.code).toBe('term_exists');
    const amp = await gw.api('POST', '/categories', { token: 'editor', body: { name: 'Jazz & Blues' } });
    expect(amp.body.name).toBe('Jazz &amp; Blues');
    expectInvalidParams(await gw.api('POST', '/categories', { token: 'editor', body: { name: '<img src="x.png">' } }), 'name');
    // Named inline in an event: the same rule, and the same term.
    const event = await gw.api('POST', '/events', {
      token: 'editor',
      body: { title: 'Tagged', start_date: at(8), end_date: at(8), tags: ['line<br/>break'], categories: ['Jazz & Blues'] },
    });
    expect(event.status, event.text).toBe(201);
    expect(event.body.tags.map((t: { id: number }) => t.id)).toEqual([first.body.id]);
    expect(event.body.categories.map((c: { id: number }) => c.id)).toEqual([amp.body.id]);
  });
});
