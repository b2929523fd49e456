// Creating and updating through TEC's `tec/v1` namespace: TEC's permission checks and
// answers around the v1 writes of the same meaning (lib/logic/tec-v1-reads.ts says why), so the
// rules of a write (roles, statuses, links, slugs, If-Match, Idempotency-Key) are those of v1.
import { ApiError, forbidden } from '#lib/contract/errors.js';
import { json, recordReply, type Reply } from '#lib/contract/reply.js';
import type { ArgsOf } from '#lib/contract/operations.js';
import type { Input, RequestContext } from '#lib/contract/request.js';
import { getItem } from '#lib/store/reads.js';
import { keys, type PostKind } from '#lib/store/keys.js';
import { ofKind } from '#lib/store/items.js';
import { createEvent, updateEvent } from './events.js';
import { createPlace, updatePlace } from './places.js';
import { asV1, present, requireAcknowledgement, V1_KIND, writable } from './tec-v1-reads.js';

/** This namespace's arguments as v1 names them (WordPress's field names to TEC's v1 ones). */
function v1Input(kind: PostKind, p: Record<string, unknown>): Input {
  const post = { title: p.title, description: p.content, excerpt: p.excerpt, slug: p.slug, status: p.status, author: p.author, date: p.date, date_utc: p.date_gmt };
  const name = (key: 'venue' | 'organizer') => ({ [key]: p.title, title: undefined });
  if (kind === 'venue')
    return {
      ...post,
      ...name('venue'),
      address: p.address,
      country: p.country,
      city: p.city,
      stateprovince: p.state_province,
      state: p.state,
      province: p.province,
      zip: p.zip,
      phone: p.phone,
      website: p.website,
    };
  if (kind === 'organizer') return { ...post, ...name('organizer'), phone: p.phone, website: p.website, email: p.email };
  return {
    ...post,
    start_date: p.start_date,
    end_date: p.end_date,
    timezone: p.timezone,
    all_day: p.all_day,
    featured: p.featured,
    sticky: p.sticky,
    cost: p.cost,
    categories: p.tribe_events_cat,
    tags: p.tags,
    venue: p.venues,
    organizer: p.organizers,
  };
}

/** The record a v1 write answered with, read again and shown as this namespace shows it. */
async function shown(ctx: RequestContext, status: number, reply: Reply): Promise<Reply> {
  const id = reply.revision?.id ?? (reply.body as { id?: number }).id;
  const record = await getItem(keys.post(Number(id)));
  const post = ofKind(record, 'event') ?? ofKind(record, 'venue') ?? ofKind(record, 'organizer');
  if (!post) throw new ApiError(500, 'rest_internal_error', 'Entity not found after update.');
  return recordReply(status, await present(ctx, post), post);
}

/** POST: anyone with a role may create (drafts and pending records for contributors, as in v1). */
export async function createTecPost(ctx: RequestContext, kind: PostKind): Promise<Reply> {
  if (!ctx.principal?.role) throw forbidden(!!ctx.principal);
  requireAcknowledgement(ctx);
  const input = v1Input(kind, ctx.params as Record<string, unknown>);
  const reply =
    kind === 'event'
      ? await createEvent(asV1(ctx, 'events.create', input))
      : await createPlace(asV1(ctx, `${V1_KIND[kind]}.create`, input) as RequestContext<ArgsOf<'venues.create'>>, kind);
  return shown(ctx, 201, reply);
}

/** PUT and PATCH: partial, as every update here; a record of another kind is TEC's 404. */
export async function updateTecPost(ctx: RequestContext, kind: PostKind): Promise<Reply> {
  const post = await writable(ctx);
  if (post.kind !== kind) return json(404, { error: 'The entity could not be updated.' });
  const input = v1Input(kind, ctx.params as Record<string, unknown>);
  const reply =
    kind === 'event'
      ? await updateEvent(asV1(ctx, 'events.update', input))
      : await updatePlace(asV1(ctx, `${V1_KIND[kind]}.update`, input) as RequestContext<ArgsOf<'venues.update'>>, kind);
  return shown(ctx, 200, reply);
}
