// Stream records -> Changes (lib/stream/decode.ts): every action of every kind, the items that
// are not records, and what the feed counts as an edit.
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { keys } from '#lib/store/keys.js';
import { decode, isBookkeepingOnly, passesFilter, UndecodableRecordError } from '#lib/stream/decode.js';

const AT = 1_767_225_600; // 2026-01-01T00:00:00Z

type Image = Record<string, unknown>;

function record(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', key: { pk: string; sk: string }, old?: Image, now?: Image, extra: Partial<DynamoDBRecord> = {}): DynamoDBRecord {
  const image = (i: Image | undefined) => (i ? (marshall({ ...key, ...i }, { removeUndefinedValues: true }) as any) : undefined);
  return {
    eventID: `id-${eventName}-${key.pk}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2026-01-01T00:00:00.000',
    dynamodb: {
      ApproximateCreationDateTime: AT,
      Keys: marshall(key) as any,
      ...(now ? { NewImage: image(now) } : {}),
      ...(old ? { OldImage: image(old) } : {}),
      SequenceNumber: '000000000000000000042',
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    ...extra,
  };
}

const post = (kind: string, id: number, status: string, version: number, more: Image = {}) => ({ id, kind, lang: 'lt', status, version, title: `${kind} ${id}`, ...more });
const term = (taxonomy: string, id: number, version: number, more: Image = {}) => ({ id, taxonomy, lang: 'ru', name: `${taxonomy} ${id}`, count: 0, version, ...more });

describe('decode', () => {
  for (const kind of ['event', 'venue', 'organizer'] as const) {
    it(`decodes every action of a ${kind}`, () => {
      const key = keys.post(12);
      const cases: [DynamoDBRecord, string, number][] = [
        [record('INSERT', key, undefined, post(kind, 12, 'publish', 1)), 'create', 1],
        [record('MODIFY', key, post(kind, 12, 'publish', 1), post(kind, 12, 'draft', 2, { title: 'x' })), 'update', 2],
        [record('MODIFY', key, post(kind, 12, 'draft', 2), post(kind, 12, 'trash', 3)), 'trash', 3],
        [record('MODIFY', key, post(kind, 12, 'trash', 3), post(kind, 12, 'trash', 4, { title: 'still trashed' })), 'update', 4],
        [record('MODIFY', key, post(kind, 12, 'trash', 4), post(kind, 12, 'pending', 5)), 'restore', 5],
        // A delete carries the version it removed.
        [record('REMOVE', key, post(kind, 12, 'publish', 6)), 'delete', 6],
      ];
      for (const [r, action, revision] of cases) {
        const change = decode(r)!;
        expect(change, action).toMatchObject({
          eventId: r.eventID,
          sequence: '000000000000000000042',
          kind,
          id: 12,
          lang: 'lt',
          action,
          revision,
          at: '2026-01-01T00:00:00.000Z',
        });
        expect(change.old, action).toEqual(r.dynamodb!.OldImage ? expect.objectContaining({ pk: 'POST#12', version: expect.any(Number) }) : undefined);
        expect(change.new, action).toEqual(r.dynamodb!.NewImage ? expect.objectContaining({ pk: 'POST#12', status: expect.any(String) }) : undefined);
      }
    });
  }

  for (const taxonomy of ['category', 'tag'] as const) {
    it(`decodes every action of a ${taxonomy}`, () => {
      const key = keys.term(7);
      const created = decode(record('INSERT', key, undefined, term(taxonomy, 7, 1)))!;
      expect(created).toMatchObject({ kind: taxonomy, id: 7, lang: 'ru', action: 'create', revision: 1 });
      expect(created.new).toMatchObject({ name: `${taxonomy} 7`, count: 0 });
      expect(decode(record('MODIFY', key, term(taxonomy, 7, 1), term(taxonomy, 7, 2, { name: 'Renamed' })))).toMatchObject({ kind: taxonomy, action: 'update', revision: 2 });
      expect(decode(record('REMOVE', key, term(taxonomy, 7, 9)))).toMatchObject({ kind: taxonomy, action: 'delete', revision: 9 });
    });
  }

  it('ignores every item that is not a record', () => {
    const items: [{ pk: string; sk: string }, Image][] = [
      [keys.slugGuard('event', 'en', 'a'), { id: 1 }],
      [keys.counter('post'), { value: 3 }],
      [keys.link('POST#5', 12), { id: 12, eventId: 12, status: 'publish' }],
      [keys.featured(12), { id: 12, featured: true }],
      [keys.termName('category', 'en', 0, 'Jazz'), { id: 7 }],
      [keys.placeTitle('venue', 'en', 'hall', 5), { id: 5 }],
      [keys.slugCounter('tag', 'en', 'x'), { n: 2 }],
      [keys.credentials('sub'), { login: 'x' }],
      [keys.appPassword('sub', 'u'), { name: 'x' }],
      [keys.login('x'), { sub: 'sub' }],
      [keys.userBySub('sub'), { id: 1 }],
      [keys.userById(1), { sub: 'sub' }],
      [keys.langStats('en'), { seconds: 1 }],
      [{ pk: 'COUNT#LIST#event#en', sk: '2026-01' }, { n: 1 }],
      [{ pk: 'FEED#abc', sk: 'FEED' }, { state: 'claimed' }],
      // A record's sort key outside a record's partition.
      [
        { pk: 'OTHER#1', sk: 'POST' },
        { kind: 'event', id: 1, lang: 'en', version: 1 },
      ],
    ];
    for (const [key, item] of items) {
      for (const r of [record('INSERT', key, undefined, item), record('MODIFY', key, item, item), record('REMOVE', key, item)]) {
        expect(decode(r), `${r.eventName} ${key.pk} ${key.sk}`).toBeUndefined();
        expect(passesFilter(r), key.pk).toBe(key.sk === 'POST');
      }
    }
    expect(passesFilter(record('INSERT', keys.term(1), undefined, term('tag', 1, 1)))).toBe(true);
  });

  it('fails on a record it cannot read rather than skipping it', () => {
    const key = keys.post(3);
    expect(() => decode(record('INSERT', key, undefined, post('page', 3, 'publish', 1)))).toThrow(UndecodableRecordError);
    expect(() => decode(record('INSERT', key, undefined, post('event', 3, 'publish', 1, { lang: 'xx' })))).toThrow(/language/);
    expect(() => decode(record('INSERT', keys.term(3), undefined, term('genre', 3, 1)))).toThrow(/taxonomy/);
    // A stream without images (KEYS_ONLY) cannot be decoded.
    expect(() => decode(record('INSERT', key, undefined, undefined))).toThrow(/NEW_AND_OLD_IMAGES/);
    expect(() => decode(record('MODIFY', key, undefined, post('event', 3, 'publish', 2)))).toThrow(/old image/);
    const noTime = record('INSERT', key, undefined, post('event', 3, 'publish', 1));
    delete noTime.dynamodb!.ApproximateCreationDateTime;
    expect(() => decode(noTime)).toThrow(/ApproximateCreationDateTime/);
  });

  it('reads the id from the key when the image has none, and binary and set values', () => {
    const r = record('INSERT', keys.post(44), undefined, { kind: 'venue', lang: 'en', status: 'publish', version: 1, tags: new Set(['a', 'b']) });
    r.dynamodb!.NewImage!.blob = { B: Buffer.from('hi').toString('base64') };
    const change = decode(r)!;
    expect(change.id).toBe(44);
    expect(change.new!.tags).toEqual(new Set(['a', 'b']));
    expect(Buffer.from(change.new!.blob as Uint8Array).toString()).toBe('hi');
  });
});

describe('bookkeeping', () => {
  const key = keys.term(7);
  it('tells counts, cards and versions from edits', () => {
    const counted = decode(record('MODIFY', key, term('category', 7, 1, { count: 0 }), term('category', 7, 2, { count: 1 })))!;
    expect(isBookkeepingOnly(counted)).toBe(true);
    const renamed = decode(record('MODIFY', key, term('category', 7, 2), term('category', 7, 3, { name: 'New' })))!;
    expect(isBookkeepingOnly(renamed)).toBe(false);
    const event = (more: Image) => post('event', 12, 'publish', 1, { venues: [5], cards: { '5': { title: 'Old' } }, ...more });
    const carded = decode(record('MODIFY', keys.post(12), event({}), event({ version: 2, indexVersion: 2, cards: { '5': { title: 'New' } } })))!;
    expect(isBookkeepingOnly(carded)).toBe(true);
    const relinked = decode(record('MODIFY', keys.post(12), event({}), event({ version: 2, venues: [6] })))!;
    expect(isBookkeepingOnly(relinked)).toBe(false);
    const linked = decode(record('MODIFY', keys.post(5), post('venue', 5, 'publish', 1), post('venue', 5, 'publish', 2, { linkedEvents: 1 })))!;
    expect(isBookkeepingOnly(linked)).toBe(true);
    // Only updates: a create, trash or delete is always an edit.
    const trashed = decode(record('MODIFY', keys.post(5), post('venue', 5, 'publish', 1), post('venue', 5, 'trash', 2)))!;
    expect(isBookkeepingOnly(trashed)).toBe(false);
    expect(isBookkeepingOnly(decode(record('INSERT', key, undefined, term('tag', 7, 1)))!)).toBe(false);
  });
});
