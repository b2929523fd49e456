// Calendar feeds: `?ical=1` on an event's reads and on the event list answers an iCalendar file
// (lib/present/ical.ts) instead of JSON, with the same access rules, validators and caching.
// A list's feed holds every matching event, the soonest first, up to `icalMaxEvents` (or the
// request's `ical_limit`, if lower: TEC's calendar views export 30).
import { config } from '#lib/runtime/config.js';
import { textReply, type Reply } from '#lib/contract/reply.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { icalendar, type Calendar } from '#lib/present/ical.js';
import { loadLinked } from './common.js';
import { wellTyped } from '#lib/present/well-typed.js';
import { listEvents } from './event-list.js';
import type { EventListRequest } from './event-window.js';
import { readablePost, readPost } from './post-reads.js';

const CONTENT_TYPE = 'text/calendar; charset=UTF-8';

const disposition = (c: Calendar) => ({ 'content-disposition': `attachment; filename="${c.filename}"` });

/** GET /events/{id} and /events/by-slug/{slug}: the event, as JSON or (`ical`) as a calendar file. */
export async function readEvent(ctx: RequestContext<ArgsOf<'events.get'>> | RequestContext<ArgsOf<'events.getBySlug'>>): Promise<Reply> {
  if (!ctx.params.ical) return readPost(ctx, 'event');
  const event = wellTyped(await readablePost(ctx, 'event'));
  const calendar = icalendar([{ event, open: true }], await loadLinked([event], { shared: ctx.shared }));
  return textReply(calendar.text, CONTENT_TYPE, disposition(calendar), event);
}

/**
 * GET /events: a page, or (`ical`) a feed of the whole list. `X-TEC-Total` says how many events
 * match, `X-Feed-Events` how many the file holds, and `X-Feed-Truncated: true` that the limit cut it.
 */
export function listOrFeed(ctx: EventListRequest): Promise<Reply> {
  if (!ctx.params.ical) return listEvents(ctx);
  const limit = Math.min(ctx.params.ical_limit ?? Infinity, config().icalMaxEvents);
  return listEvents(ctx, {
    limit,
    answer: ({ events, linked, open, total }) => {
      const calendar = icalendar(
        events.map((event, i) => ({ event, open: open[i] === true })),
        linked,
      );
      const headers: Record<string, string> = { ...disposition(calendar), 'X-TEC-Total': String(total), 'X-Feed-Events': String(calendar.events) };
      if (total > events.length) headers['X-Feed-Truncated'] = 'true';
      return textReply(calendar.text, CONTENT_TYPE, headers);
    },
  });
}
