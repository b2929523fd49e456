// Whether a WordPress export can hold HTML's named entities (`&nbsp;`), which XML without a DTD
// does not define and the export reader refuses: the live site's tagline is set to hold some
// through wp/v2/settings, the site is exported, and the tagline is restored. WordPress writes the
// channel's texts through ent2ncr, as numeric references, so the export stays well-formed XML.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWxr } from '#lib/import/wxr-reader.js';
import type { WxrEntry } from '#lib/import/wxr-types.js';
import { tecExport } from '../support/tec-export.js';
import { liveSite, type LiveSiteClient } from './import-calendar.js';

const MARK = `ent${Date.now().toString(36)}`;

describe('named entities in the live TEC’s export', () => {
  let site: LiveSiteClient;
  let tagline: string | undefined;
  let text = '';
  const entries: WxrEntry[] = [];

  beforeAll(async () => {
    site = await liveSite();
    const settings = await site.tec('GET', '/wp/v2/settings');
    expect(settings.status).toBe(200);
    tagline = settings.body.description as string;
    try {
      const set = await site.tec('POST', '/wp/v2/settings', { description: `Events&nbsp;here &copy; &hellip; ${MARK}` });
      expect(set.body.description).toBe(`Events&nbsp;here &copy; &hellip; ${MARK}`);
      // Organizers only: a small export, the channel header is the same.
      for await (const chunk of await tecExport('tribe_organizer')) text += Buffer.from(chunk).toString('utf8');
    } finally {
      // The site is shared: its tagline is put back at once.
      const back = await site.tec('POST', '/wp/v2/settings', { description: tagline });
      expect(back.body.description).toBe(tagline);
    }
    for await (const e of readWxr(
      (async function* () {
        yield text;
      })(),
    ))
      entries.push(e);
  });

  afterAll(async () => {
    if (tagline !== undefined && (await site.tec('GET', '/wp/v2/settings')).body.description !== tagline) await site.tec('POST', '/wp/v2/settings', { description: tagline });
  });

  it('writes the tagline’s named entities as numeric references, which the reader reads', () => {
    const channel = text.slice(text.indexOf('<channel>'), text.indexOf('<wp:wxr_version>'));
    expect(channel).toContain(`<description>Events&#160;here &#169; &#8230; ${MARK}</description>`);
    expect(channel).not.toMatch(/&(nbsp|copy|hellip);/);
    expect(entries[0]).toMatchObject({ kind: 'site', wxrVersion: '1.2' });
  });

  it('holds no named entity outside CDATA anywhere in the export', () => {
    const outside = text.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
    expect(outside.match(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)[a-z][a-z0-9]*;/gi) ?? []).toEqual([]);
  });
});
