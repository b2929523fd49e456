// What a page of events echoes of its request, for rest_url and the page links.
import type { EventListRequest, Window } from './event-window.js';

/** What a page resolved of its request: the statuses it shows, its window, the venues and organizers it names. */
export interface EchoedPage {
  page: number;
  perPage: number;
  shown: string;
  window: Window | undefined;
  venue?: number[];
  organizer?: number[];
}

/** The effective query, in TEC's order (docs/tec-behaviour.md §4.1.4), for rest_url and the page links. */
export function echoQuery(ctx: EventListRequest, { page, perPage, shown, window: w, venue, organizer }: EchoedPage): [string, string][] {
  const p = ctx.params;
  const q: [string, string][] = [
    ['page', String(page)],
    ['per_page', String(perPage)],
  ];
  const dates = w?.echo ?? [];
  q.push(...dates.filter(([k]) => k === 'start_date' || k === 'end_date'));
  if (p.search !== undefined) q.push(['search', p.search]);
  q.push(['status', shown]);
  if (p.post_parent !== undefined) q.push(['post_parent', String(p.post_parent)]);
  if (p.include !== undefined) q.push(['include', p.include.join(',')]);
  q.push(...dates.filter(([k]) => k !== 'start_date' && k !== 'end_date'));
  if (p.strict_dates === true) q.push(['strict_dates', 'true']);
  if (venue !== undefined) q.push(['venue', venue.join(',')]);
  if (organizer !== undefined) q.push(['organizer', organizer.join(',')]);
  if (p.featured !== undefined) q.push(['featured', p.featured ? '1' : '0']);
  if (p.categories !== undefined) q.push(['categories', p.categories.join(',')]);
  if (p.tags !== undefined) q.push(['tags', p.tags.join(',')]);
  if (p.geoloc !== undefined) q.push(['geoloc', p.geoloc ? '1' : '0']);
  if (p.geoloc_lat !== undefined) {
    q.push(['geoloc_lat', String(p.geoloc_lat)], ['geoloc_lng', String(p.geoloc_lng)], ['geoloc_radius', String(p.geoloc_radius)]);
  }
  return q;
}
