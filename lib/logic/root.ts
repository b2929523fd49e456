// The indexes, in WordPress's format (docs/tec-behaviour.md §9.2), generated from the operation table and the
// argument definitions, once per process, language and link form: the namespace index
// (`/<lang>/<ns>/events/v1`) and the REST API index (`/wp-json/`, `/<lang>`) that lists the site,
// its namespaces and every route served (the OpenAPI document is lib/logic/doc.ts).
import { apiBase, config, restRoot, type Config, type Lang } from '#lib/runtime/config.js';
import { offsetAt } from '#lib/domain/time/dates.js';
import { json, type Reply } from '#lib/contract/reply.js';
import { argSchema, documentedArgs, type ArgDoc } from '#lib/contract/arg-docs.js';
import { API_ROOTS, OPERATIONS, routePath, type Api, type Operation } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';

/** WordPress's patterns of the path variables, as its route keys write them. */
const VARIABLES: Record<string, string> = {
  id: '(?P<id>\\d+)',
  slug: '(?P<slug>[^/]+)',
  user: '(?P<user_id>(?:[\\d]+|me))',
  uuid: '(?P<uuid>[\\w\\-]+)',
};

/** An operation's route as WordPress keys it, below the REST root: `/tribe/events/v1/events/(?P<id>\d+)`, `/` for the index. */
const wpRoute = (op: Operation, ns: string) =>
  routePath(op, ns)
    .replace(/^\/\{lang\}/, '')
    .replace(/\{([a-z]+)\}/g, (whole, name: string) => VARIABLES[name] ?? whole) || '/';

/** The namespace WordPress files a route under. */
const NAMESPACES: Record<Api, (ns: string) => string> = { rest: () => '', tec: (ns) => `${ns}/events/v1`, tecV1: () => 'tec/v1', wp: () => 'wp/v2' };

/** An argument as WordPress lists it: its JSON-Schema keywords, then `required` (always a boolean, always last). */
function argDoc(arg: ArgDoc) {
  const { type, items, format, enum: values, default: dflt } = argSchema(arg);
  return {
    ...(dflt !== undefined ? { default: dflt } : {}),
    description: arg.description,
    ...(type !== undefined ? { type } : {}),
    ...(items !== undefined ? { items } : {}),
    ...(format !== undefined ? { format } : {}),
    ...(values !== undefined ? { enum: values } : {}),
    required: arg.required === true,
  };
}

/** The routes of some operations, as WordPress's indexes list them; links in the request's form. */
function routes(ops: readonly Operation[], lang: Lang, cfg: Config): Record<string, unknown> {
  const ns = `${cfg.namespace}/events/v1`;
  const byRoute = new Map<string, Operation[]>();
  for (const op of ops) byRoute.set(wpRoute(op, cfg.namespace), [...(byRoute.get(wpRoute(op, cfg.namespace)) ?? []), op]);
  const out: Record<string, unknown> = {};
  for (const [route, group] of byRoute) {
    out[route] = {
      namespace: NAMESPACES[group[0]!.api](cfg.namespace),
      methods: [...new Set(group.flatMap((o) => o.methods))],
      endpoints: group.map((o) => {
        // The route prefix is this API's, not WordPress's: it is no argument there.
        // tec/v1 lists no path arguments, as TEC registers them there.
        const args = Object.entries(documentedArgs(o, ns)).filter(([name, arg]) => !(o.api === 'rest' && name === 'lang') && !(o.api === 'tecV1' && arg.path));
        // PHP encodes an empty argument list as [] (TEC's /doc route shows `"args":[]`).
        return { methods: o.methods, args: args.length ? Object.fromEntries(args.map(([name, arg]) => [name, argDoc(arg)])) : [] };
      }),
      // Only routes without path variables link to themselves.
      ...(route.includes('(?P<') ? {} : { _links: { self: [{ href: `${restRoot(lang, cfg)}${route}` }] } }),
    };
  }
  return out;
}

/** The index of one namespace: TEC's (`<ns>/events/v1`) or its newer one (`tec/v1`). */
function buildIndex(lang: Lang, api: Api): Record<string, unknown> {
  const cfg = config();
  return {
    namespace: NAMESPACES[api](cfg.namespace),
    // WordPress's own routes belong to its `wp/v2` namespace, not to this one.
    routes: routes(
      OPERATIONS.filter((op) => op.api === api),
      lang,
      cfg,
    ),
    _links: { up: [{ href: `${restRoot(lang, cfg)}/` }] },
  };
}

/** WordPress's `gmt_offset` and `timezone_string` of the site's time zone (a fixed `UTC±N` has no zone name). */
function siteZone(cfg: Config, now: Date): { gmt_offset: number | string; timezone_string: string } {
  // The offset of the instant itself: a wall time the zone passes twice names two.
  const hours = offsetAt(cfg.siteTimezone, now.getTime()) / 60;
  return /^UTC[+-]/i.test(cfg.siteTimezone) ? { gmt_offset: String(hours), timezone_string: '' } : { gmt_offset: hours, timezone_string: cfg.siteTimezone };
}

function buildSiteIndex(lang: Lang, now: Date): Record<string, unknown> {
  const cfg = config();
  const root = restRoot(lang, cfg);
  const apis = [...new Set(OPERATIONS.map((op) => op.api))].filter((api) => api !== 'rest');
  return {
    name: cfg.siteName,
    description: cfg.siteDescription,
    url: cfg.siteUrl,
    home: lang === cfg.defaultLang ? cfg.siteUrl : `${cfg.siteUrl}/${lang}`,
    ...siteZone(cfg, now),
    page_for_posts: 0,
    page_on_front: 0,
    show_on_front: 'posts',
    namespaces: apis.map((api) => NAMESPACES[api](cfg.namespace)),
    // There is no authorization screen: an application password is made with a signed-in request
    // to this route (docs/wordpress-clients.md).
    authentication: { 'application-passwords': { endpoints: { authorization: `${root}${API_ROOTS.wp(cfg.namespace).replace('/{lang}', '')}/users/me/application-passwords` } } },
    routes: routes(OPERATIONS, lang, cfg),
    site_logo: 0,
    site_icon: 0,
    site_icon_url: '',
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}

const indexes = new Map<string, Record<string, unknown>>();

/** The index of the namespace the request's route is in. */
export async function namespaceIndex(ctx: RequestContext): Promise<Reply> {
  const key = `${ctx.op.api}|${config().namespace}|${apiBase(ctx.lang)}`;
  let index = indexes.get(key);
  if (!index) indexes.set(key, (index = buildIndex(ctx.lang, ctx.op.api)));
  return json(200, index);
}

const siteIndexes = new Map<string, { hour: number; index: Record<string, unknown> }>();

export async function siteIndex(ctx: RequestContext): Promise<Reply> {
  const cfg = config();
  const key = `${cfg.namespace}|${cfg.siteTimezone}|${restRoot(ctx.lang, cfg)}`;
  // The zone's offset changes with daylight saving time: an index is kept for an hour at most.
  const hour = Math.floor(ctx.now.getTime() / 3_600_000);
  let kept = siteIndexes.get(key);
  if (kept?.hour !== hour) siteIndexes.set(key, (kept = { hour, index: buildSiteIndex(ctx.lang, ctx.now) }));
  return json(200, kept.index);
}
