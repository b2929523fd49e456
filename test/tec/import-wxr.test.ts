// The live TEC's export file and the live site, imported into two fresh tables, answer alike: a
// calendar of hard cases is made on the site, its WordPress export (wp-admin/export.php) is
// imported into one table and the site itself (through its REST APIs) into another, and every
// record made is read from both, as an editor and anonymously, with the lists that name them.
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importEntries } from '#lib/import/run.js';
import { readWxr } from '#lib/import/wxr-reader.js';
import type { WxrEntry } from '#lib/import/wxr-types.js';
import { invoke } from '#lib/local/invoke.js';
import { ensureTable, localClient } from '#lib/local/dynamo.js';
import { resetConfig } from '#lib/runtime/config.js';
import { useGateway } from '../support/gateway.js';
import { dynamoEndpoint, uniqueTableName } from '../support/table.js';
import { tecExport } from '../support/tec-export.js';
import { calendarKeys, corpusTexts, importMine, liveSite, makeCalendar, now, type CalendarIds, type LiveSiteClient } from './import-calendar.js';

const run = `iwx${Date.now().toString(36)}`;

describe('an export file and the live site, imported, answer alike', () => {
  const gw = useGateway({ tablePrefix: 'tec-import-wxr' });
  const liveTable = uniqueTableName('tec-import-live');
  let site: LiveSiteClient;
  let ids: CalendarIds;
  const answers: Record<'wxr' | 'live', Map<string, { status: number; body: unknown }>> = { wxr: new Map(), live: new Map() };

  /** Every GET compared: each record for an editor and anonymously, and the lists that name them. */
  const routes = () => {
    const out: string[] = [];
    for (const id of ids.events) out.push(`/events/${id}`);
    for (const id of ids.venues) out.push(`/venues/${id}`);
    for (const id of ids.organizers) out.push(`/organizers/${id}`);
    for (const id of ids.categories) out.push(`/categories/${id}`);
    for (const id of ids.tags) out.push(`/tags/${id}`);
    const window = 'start_date=2027-01-01&end_date=2028-12-31&per_page=50';
    for (const id of ids.categories) out.push(`/events?categories=${id}&${window}`);
    for (const id of ids.tags) out.push(`/events?tags=${id}&${window}`);
    for (const id of ids.venues) out.push(`/events?venue=${id}&${window}`);
    for (const id of ids.organizers) out.push(`/events?organizer=${id}&${window}`);
    out.push(`/categories?parent=${ids.categories[0]}`, `/categories?parent=${ids.categories[1]}`);
    return out;
  };

  const readAll = async (into: Map<string, { status: number; body: unknown }>) => {
    for (const route of routes())
      for (const anonymous of [false, true]) {
        // An editor opens the password-protected event with context=edit, as on WordPress.
        const path = !anonymous && /^\/events\/\d+$/.test(route) ? `${route}?context=edit` : route;
        const res = await gw.api('GET', path, anonymous ? {} : { token: 'editor' });
        into.set(`${anonymous ? 'anonymous' : 'editor'} GET ${route}`, { status: res.status, body: res.body });
      }
  };

  const useTable = (name: string) => {
    process.env.TABLE_NAME = name;
    resetConfig();
  };

  beforeAll(async () => {
    site = await liveSite();
    const start = now();
    ids = await makeCalendar(site, run, { titles: corpusTexts('title', 8), descriptions: corpusTexts('description', 8) });
    const mine = calendarKeys(ids);
    const token = await gw.token('editor', 'site-import');

    // The export holds the whole site: its terms, authors and images are all imported, of its
    // posts only the test's (so that a large site stays quick), and those are compared.
    const posts = new Set([...ids.events, ...ids.venues, ...ids.organizers]);
    async function* theTestsPosts(entries: AsyncIterable<WxrEntry>) {
      for await (const e of entries) if (e.kind !== 'post' || e.type === 'attachment' || posts.has(e.id)) yield e;
    }
    const summary = await importEntries(theTestsPosts(readWxr(await tecExport())), { send: invoke, token });
    expect(summary.failed.filter((f) => mine.has(`${f.kind}#${f.id}`))).toEqual([]);
    await readAll(answers.wxr);

    const wxrTable = gw.table;
    await ensureTable(liveTable, await dynamoEndpoint(), { stream: false });
    useTable(liveTable);
    try {
      await importMine(site, start, token, mine);
      await readAll(answers.live);
    } finally {
      useTable(wxrTable);
    }
  }, 240_000);

  afterAll(async () => {
    const client = localClient(await dynamoEndpoint());
    await client.send(new DeleteTableCommand({ TableName: liveTable })).catch(() => undefined);
    client.destroy();
  });

  it('reads every record and list of the test from both tables alike, for an editor and anonymously', () => {
    expect([...answers.wxr.keys()]).toEqual([...answers.live.keys()]);
    for (const [key, wxr] of answers.wxr) expect({ key, ...wxr }).toEqual({ key, ...answers.live.get(key)! });
  });

  it('finds the records it compares, and the lists name them', () => {
    const ok = [...answers.live].filter(([k, v]) => k.startsWith('editor GET /events/') && v.status === 200);
    expect(ok.length).toBe(ids.events.length - 1);
    const hall = answers.live.get(`editor GET /events?venue=${ids.venues[0]}&start_date=2027-01-01&end_date=2028-12-31&per_page=50`)!.body as { total: number };
    expect(hall.total).toBeGreaterThanOrEqual(3);
    const event = (i: number) => answers.live.get(`editor GET /events/${ids.events[i]}`)!.body as { image: unknown; website: string; url: string };
    expect(event(3).image).toMatchObject({ url: expect.stringContaining(`poster-${run}`) });
    // The password-protected event, whose website was never set, shows its own link as TEC does.
    expect(event(10).website).toBe(event(10).url);
  });
});
