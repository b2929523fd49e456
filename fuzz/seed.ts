// Callers and a little data, made through the API before a run: tokens of every role and broken
// ones, HTTP Basic credentials (an application password, and broken ones), venues, organizers,
// categories, tags and events (published, draft, protected, trashed, hidden, another language),
// the callers' user ids and a few application passwords, whose ids, slugs and uuids the requests
// then aim at.
import { generateKeyPair, SignJWT } from 'jose';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, mintToken, type DevKeys } from '#lib/local/dev-auth.js';
import type { Api as ApiRoot } from '#lib/contract/operations.js';
import { apiPath, type Client, type LiveWorld } from './client.js';
import type { World } from './args.js';
import type { Caller } from './model.js';

/** The user whose application password is the `app-password` caller's: no other caller's user. */
export const BASIC_USER = 'fuzz-basic';
export const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/**
 * The Authorization header of every caller; anonymous has none, and `app-password` has one once
 * seedData has made its password.
 */
export async function callerHeaders(keys: DevKeys): Promise<Record<Caller, string | undefined>> {
  const bearer = (t: string) => `Bearer ${t}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const forged = await new SignJWT({ 'cognito:groups': ['editor'] })
    .setProtectedHeader({ alg: 'RS256', kid: keys.privateJwk.kid })
    .setSubject('fuzz-forger')
    .setIssuer(LOCAL_ISSUER)
    .setAudience(LOCAL_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  const ttl = '2h';
  return {
    anonymous: undefined,
    contributor: bearer(await mintToken(keys, { role: 'contributor', sub: 'fuzz-contributor', ttl })),
    author: bearer(await mintToken(keys, { role: 'author', sub: 'fuzz-author', ttl })),
    editor: bearer(await mintToken(keys, { role: 'editor', sub: 'fuzz-editor', ttl })),
    roleless: bearer(await mintToken(keys, { sub: 'fuzz-roleless', ttl })),
    'app-password': undefined,
    // No password: WordPress takes that as no credentials at all.
    'basic-no-password': basic(BASIC_USER, ''),
    expired: bearer(await mintToken(keys, { role: 'editor', sub: 'fuzz-editor', expiresAt: Math.floor(Date.now() / 1000) - 3600 })),
    'wrong-audience': bearer(await mintToken(keys, { role: 'editor', audience: 'someone-else', ttl })),
    'wrong-issuer': bearer(await mintToken(keys, { role: 'editor', issuer: 'urn:elsewhere', ttl })),
    forged: bearer(forged),
    garbage: 'Bearer abc.def.ghi',
    basic: 'Basic dXNlcjpwYXNz',
    'basic-wrong-password': basic(BASIC_USER, 'abcd efgh ijkl mnop qrst uvwx'),
    // Longer than any key of the table may be.
    'basic-long-login': basic('x'.repeat(3000), 'abcd efgh ijkl mnop qrst uvwx'),
    'empty-bearer': 'Bearer',
  };
}

type Json = Record<string, any>;

export interface ApiOptions {
  body?: unknown;
  caller?: Caller;
  /** An Authorization header of no caller (instead of `caller`'s). */
  authorization?: string;
  lang?: string;
  /** WordPress's routes (`/{lang}/wp/v2`) instead of TEC's. */
  api?: ApiRoot;
}

export type Api = (method: string, path: string, opts?: ApiOptions) => Promise<{ status: number; body: Json; text: string; headers: Record<string, unknown> }>;

/** A small JSON client on top of the raw one, for seeding and probes. */
export function jsonApi(http: Client, auth: Record<Caller, string | undefined>): Api {
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = {};
    const a = opts.authorization ?? auth[opts.caller ?? 'anonymous'];
    if (a) headers.authorization = a;
    let body: Buffer | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(opts.body));
    }
    const res = await http.send({ method, target: `${apiPath(opts.lang ?? 'en', opts.api)}${path}`, headers, body });
    let parsed: Json = {};
    try {
      parsed = JSON.parse(res.text) as Json;
    } catch {
      /* left empty */
    }
    return { status: res.status, body: parsed, text: res.text, headers: res.headers };
  };
}

const DAY = 86_400_000;
export const day = (n: number, time = '10:00') => `${new Date(Date.now() + n * DAY).toISOString().slice(0, 10)} ${time}`;

/**
 * Creates the seed data; returns the world requests aim at, and the `app-password` caller's
 * header (a password of BASIC_USER, who `basicOwner`, a bearer header, signs in). Throws when the
 * API does not take it.
 */
export async function seedData(api: Api, basicOwner: string): Promise<World & LiveWorld & { appPassword: string }> {
  const ids: Record<string, number[]> = { events: [], venues: [], organizers: [], categories: [], tags: [], users: [] };
  const slugs: Record<string, string[]> = { events: [], venues: [], organizers: [], appPasswords: [] };
  const names: string[] = [];
  const make = async (kind: string, body: Json, caller: Caller = 'editor', lang = 'en') => {
    const res = await api('POST', `/${kind}`, { body, caller, lang });
    if (res.status !== 201) throw new Error(`seeding ${kind} failed: ${res.status} ${res.text.slice(0, 300)}`);
    ids[kind]!.push(res.body.id);
    if (res.body.slug && slugs[kind]) slugs[kind]!.push(res.body.slug);
    return res.body;
  };

  const concerts = await make('categories', { name: 'Concerts', description: 'Live music' });
  await make('categories', { name: 'Jazz', parent: concerts.id });
  await make('categories', { name: 'Theatre' });
  await make('tags', { name: 'outdoor' });
  await make('tags', { name: 'family' });
  names.push('Concerts', 'Jazz', 'outdoor', 'family');

  const hall = await make('venues', { venue: 'Anchor Hall', city: 'Springfield', geo_lat: 39.8, geo_lng: -89.6, show_map: true });
  await make('venues', { venue: 'Side Room', address: '2 Loop Road', zip: '62701' });
  await make('venues', { venue: 'Draft Hall' }, 'contributor');
  const org = await make('organizers', { organizer: 'Anchor Org', email: 'org@example.com', website: 'https://example.com' });
  await make('organizers', { organizer: 'Second Org', phone: '+1 555 0100' });
  await make('organizers', { organizer: 'Draft Org' }, 'contributor');

  for (let i = 1; i <= 12; i++) {
    await make('events', {
      title: `Seed Event ${i}`,
      start_date: day(i, '19:00'),
      end_date: day(i, '21:00'),
      venue: i % 3 === 0 ? hall.id : undefined,
      organizer: i % 4 === 0 ? [org.id] : undefined,
      categories: i % 2 ? ['concerts'] : undefined,
      tags: i % 5 === 0 ? ['outdoor', 'family'] : undefined,
      cost: i % 3 ? '10 - 25' : undefined,
      featured: i === 1,
    });
  }
  await make('events', { title: 'Seed Draft', start_date: day(3), end_date: day(3, '12:00') }, 'contributor');
  await make('events', { title: 'Seed Protected', start_date: day(4), end_date: day(4, '12:00'), password: 'secret' });
  await make('events', { title: 'Seed Hidden', start_date: day(5), end_date: day(5, '12:00'), hide_from_listings: true });
  await make('events', { title: 'Seed All Day', start_date: day(6), end_date: day(7), all_day: true, timezone: 'Europe/Vilnius' });
  await make('events', { title: 'Сид', start_date: day(8), end_date: day(8, '12:00') }, 'editor', 'ru');
  const trashed = await make('events', { title: 'Seed Trashed', start_date: day(9), end_date: day(9, '12:00') });
  const del = await api('DELETE', `/events/${trashed.id}`, { caller: 'editor' });
  if (del.status !== 200) throw new Error(`seeding: trashing failed: ${del.status} ${del.text.slice(0, 300)}`);

  // The callers' user ids (a first request registers one), and application passwords of two of
  // them; the Basic caller's user is left out, so that only its own requests revoke its password.
  const wp = async (method: string, path: string, opts: ApiOptions, want: number) => {
    const res = await api(method, path, { ...opts, api: 'wp' });
    if (res.status !== want) throw new Error(`seeding: ${method} /wp/v2${path} failed: ${res.status} ${res.text.slice(0, 300)}`);
    return res.body;
  };
  for (const caller of ['editor', 'author', 'contributor', 'roleless'] as const) ids.users!.push((await wp('GET', '/users/me', { caller }, 200)).id);
  const own = (caller: Caller, uuid: string) => {
    slugs.appPasswords!.push(uuid);
    (slugs[`appPasswords.${caller}`] ??= []).push(uuid);
  };
  for (const caller of ['editor', 'author'] as const) own(caller, (await wp('POST', '/users/me/application-passwords', { caller, body: { name: `Fuzz ${caller}` } }, 201)).uuid);
  const made = await wp('POST', '/users/me/application-passwords', { authorization: basicOwner, body: { name: 'Fuzz Basic' } }, 201);
  own('app-password', made.uuid);
  const appPassword = basic(BASIC_USER, made.password);
  await wp('GET', '/users/me/application-passwords/introspect', { authorization: appPassword }, 200);
  return { ids, slugs, names, appPassword };
}
