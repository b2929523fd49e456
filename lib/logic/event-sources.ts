// The plan of a list of events: which `list` index partitions to read, and the filter on them.
import { LIST_LIMITS } from '#lib/contract/budget.js';
import { listKeys } from '#lib/store/keys.js';
import { wordDim } from '#lib/domain/search-words.js';
import { asList, ownFilter, withFilters } from './lists.js';
import { queryInput, type Source, type Test } from '#lib/store/list-index.js';
import type { Filters } from './event-filters.js';
import { HIGH, type EventListRequest, type Window } from './event-window.js';

export const queryInputOf = (s: Source) => queryInput(s, false);

const FIELD: Record<'venue' | 'organizer' | 'categories' | 'tags', [string, string]> = {
  venue: ['venues', 'venue'],
  organizer: ['organizers', 'organizer'],
  categories: ['categories', 'category'],
  tags: ['tags', 'tag'],
};

/**
 * The index partitions to read and the filter on them. The first filter given drives (one
 * partition per value and status); the others become filter expressions on the index items.
 */
export interface EventSource extends Source {
  /** No filter but the window's end conditions: the count buckets give its total. */
  counted: boolean;
}

export function sources(ctx: EventListRequest, statusList: string[], f: Filters, w: Window | undefined, ownBy?: number): { sources: EventSource[]; multi: boolean } {
  const conditions: Test[] = [];
  let driver: string[] = [''];
  let driven = false;
  const keeps: ((item: Record<string, unknown>) => boolean)[] = [];
  // A searched word drives: its partition holds only the events that have the word; those of
  // password-protected events are apart (disjoint, so their counts add up).
  if (f.word !== undefined) {
    driver = [wordDim(f.word, false), ...(f.withLocked ? [wordDim(f.word, true)] : [])];
    driven = true;
  }
  for (const name of ['venue', 'organizer', 'categories', 'tags'] as const) {
    const ids = f[name];
    if (!ids) continue;
    const [attr, dim] = FIELD[name];
    if (ids.length > LIST_LIMITS.eventFilter) {
      // More values than a request may read partitions for (only places near a point give that
      // many): the index items carry the links, so they are matched as they are read.
      const wanted = new Set(ids);
      keeps.push((item) => asList(item[attr]).some((id) => wanted.has(id)));
      continue;
    }
    if (!driven) {
      driver = ids.map((id) => `${dim}#${id}`);
      driven = true;
      continue;
    }
    conditions.push({ attr, holdsAny: ids });
  }
  if (f.featured !== undefined) {
    if (!driven) {
      driver = [`featured#${f.featured ? 1 : 0}`];
      driven = true;
    } else {
      conditions.push({ attr: 'featured', is: '=', value: f.featured });
    }
  }
  if (f.parent !== undefined) {
    conditions.push({ attr: 'parent', is: '=', value: f.parent });
  }
  // An end that is not text (a malformed item's) is no end: the event is listed by its start, as
  // the count buckets count it, and the totals' end corrections (which compare text) leave it.
  if (w?.endAtMost) conditions.push({ attr: 'utcEnd', is: '<=', value: w.endAtMost, orNotText: true });
  if (w?.endBefore) conditions.push({ attr: 'utcEnd', is: '<', value: w.endBefore, orNotText: true });
  if (w?.endAfter) conditions.push({ attr: 'utcEnd', is: '>', value: w.endAfter, orNotText: true });
  const onlyEnds = conditions.every((c) => c.attr === 'utcEnd');
  const list: EventSource[] = [];
  for (const status of statusList)
    for (const dim of driver) {
      const own = ownFilter(status, ownBy);
      const base: Source = {
        partition: listKeys.partition('event', ctx.lang, status, dim || undefined),
        from: w?.from ?? '',
        to: w?.to ?? HIGH,
        ...(conditions.length ? { where: conditions } : {}),
      };
      const keep = keeps.length ? { keep: (item: Record<string, unknown>) => keeps.every((k) => k(item)) } : {};
      list.push({ ...withFilters(base, own), ...keep, counted: onlyEnds && !own && !keeps.length });
    }
  // A kept subset's total is what its read keeps: every key is read.
  return { sources: list, multi: (driver.length > 1 && f.word === undefined) || keeps.length > 0 };
}
