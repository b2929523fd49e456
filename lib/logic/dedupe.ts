// TEC's de-duplication of venues and organizers (tribe_events_rest_venue_insert_avoid_duplicates):
// a create reuses a record of the same kind and language whose title matches, ignoring case,
// accents and trailing spaces (MySQL's collation), and, only when the request sends a
// description, whose description matches too. Any author's record in any status but the trash
// counts, as long as the caller may read it: a match is returned and linked, so another user's
// draft would leak (and be tied to the caller's events); the caller then gets a record of its own.
// Unlike TEC, the match is returned as it is (its fields are not overwritten).
//
// Candidates are found without a scan: every create and rename writes a small item under a key of
// the title (`PTITLE#<kind>#<lang>#<hash>`), and a consistent Query of that partition lists them.
// Items left by a rename or a delete are harmless: each candidate record is read and checked.
import { createHash } from 'node:crypto';
import type { RequestContext } from '#lib/contract/request.js';
import { batchGet } from '#lib/store/reads.js';
import { put, type TransactItem } from '#lib/store/transactions.js';
import { keys } from '#lib/store/keys.js';
import type { OrganizerItem, VenueItem } from '#lib/store/items.js';
import { canRead } from '#lib/auth/permissions.js';
import { placeTitlePointers } from '#lib/store/partitions.js';
import { ofKind } from '#lib/store/items.js';

type Place = VenueItem | OrganizerItem;
type PlaceKind = 'venue' | 'organizer';

/** As MySQL's utf8mb4 collation compares: case and accents ignored, trailing spaces too. */
export function collate(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ +$/, '');
}

const titleKey = (title: string) => createHash('sha256').update(collate(title)).digest('base64url');

/** The item that lets later creates find this record by its title (written with the record). */
export function titleItem(place: Pick<Place, 'kind' | 'lang' | 'title' | 'id'>): TransactItem {
  return put({ ...keys.placeTitle(place.kind, place.lang, titleKey(place.title), place.id), id: place.id }, null);
}

/** The record, readable by the caller, that a create of `kind` with this title (and description, when sent) would duplicate. */
export async function findDuplicate(ctx: RequestContext, kind: PlaceKind, title: string, description: string | undefined): Promise<Place | undefined> {
  const lang = ctx.lang;
  const partition = keys.placeTitle(kind, lang, titleKey(title), 0).pk;
  const items = await placeTitlePointers(partition, 50);
  if (!items.length) return undefined;
  const records = await batchGet(
    items.map((i) => keys.post(i.id)),
    true,
  );
  const wanted = collate(title);
  const matches = items
    .map((i) => ofKind(records.get(keys.post(i.id)), kind))
    .filter((r): r is Place => !!r && r.lang === lang && r.status !== 'trash' && collate(r.title) === wanted)
    .filter((r) => description === undefined || collate(r.description ?? '') === collate(description))
    .sort((a, b) => a.id - b.id);
  for (const match of matches) if (await canRead(ctx, match)) return match;
  return undefined;
}
