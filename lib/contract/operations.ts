// The operation table: the single source of truth for every route. The CDK stack makes one
// function and its routes from each row, the local gateway routes with it, and the namespace
// index and the OpenAPI document are generated from it.
import { CREDENTIAL_READ, CREDENTIAL_UPDATE, READ_ACTIONS, WRITE_ACTIONS, type ScopedGrant, type TableAction } from './grants.js';
import { appPasswordArgs, userArgs } from '#lib/contract/args/user.js';
import type { Args } from './params.js';
import { mlLanguage } from '#lib/contract/args/common.js';
import { changeArgs } from '#lib/contract/args/changes.js';
import { eventArgs } from '#lib/contract/args/event.js';
import { organizerArgs, venueArgs } from '#lib/contract/args/place.js';
import { categoryArgs, tagArgs } from '#lib/contract/args/term.js';
import { wpCategoryArgs, wpTagArgs } from '#lib/contract/args/wp-term.js';
import { wpEventArgs, wpOrganizerArgs, wpVenueArgs } from '#lib/contract/args/wp-post.js';
import { webhookArgs } from '#lib/contract/args/webhook.js';
import { tecEventArgs, tecOrganizerArgs, tecV1RootArgs, tecVenueArgs } from '#lib/contract/args/tec-v1.js';
import { oneOf, str } from './params.js';
import { config, isLang, LANGUAGES, REST_PREFIX, type Config, type Lang } from '#lib/runtime/config.js';

/** What TEC asks a client of an experimental route to send in `X-TEC-EEA` (lower-cased, as TEC compares it). */
export const TEC_V1_ACKNOWLEDGEMENT =
  'i understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. i also understand that i am using this endpoint at my own risk, while support is not provided for it.';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const EDITABLE: Method[] = ['POST', 'PUT', 'PATCH'];

/**
 * The route root an operation lives under: TEC's namespace (`/{lang}/<ns>/events/v1`), TEC's
 * newer, experimental one (`/{lang}/tec/v1`: WordPress's shapes of the same records, behind an
 * acknowledgement header), WordPress's own (`/{lang}/wp/v2`), where WordPress clients manage their
 * credentials, or the REST root itself (`rest`: its path is `/{lang}`, WordPress's index of the
 * whole REST API).
 */
export type Api = 'rest' | 'tec' | 'tecV1' | 'wp';
export const API_ROOTS: Record<Api, (namespace: string) => string> = {
  rest: () => '',
  tec: (namespace) => `/{lang}/${namespace}/events/v1`,
  tecV1: () => '/{lang}/tec/v1',
  wp: () => '/{lang}/wp/v2',
};

/**
 * What the first segment of every route, `{lang}`, may be: a language, whose records the route
 * serves, or WordPress's REST prefix (`wp-json`), under which every route serves the site's default
 * language at the URL a WordPress site has (`/wp-json/tribe/events/v1/events`). A `?rest_route=`
 * URL reaches the same routes, rewritten to the prefix before routing (lib/contract/rest-route.ts).
 * API Gateway matches `{lang}` against any segment, so one route per method serves every prefix:
 * an alias costs no route, no resource and no second invocation.
 */
export const ROUTE_PREFIXES: readonly string[] = [...LANGUAGES, REST_PREFIX];

/** The language a route prefix serves; undefined for a segment that is no prefix (a missing route). */
export function prefixLanguage(segment: string | undefined, cfg: Config = config()): Lang | undefined {
  if (isLang(segment)) return segment;
  return segment === REST_PREFIX ? cfg.defaultLang : undefined;
}

export interface Operation {
  /** Stable id, e.g. `events.getBySlug`. */
  id: string;
  api: Api;
  methods: Method[];
  /**
   * Path below the operation's API root; '' is the namespace root. `{id}` is digits only, `{user}`
   * is `me` or digits, `{slug}` and `{uuid}` any one segment.
   */
  path: string;
  /**
   * `write` operations need credentials and get read-write table access. Under TEC's namespace an
   * anonymous write is refused before anything else; WordPress's routes answer it themselves.
   */
  access: 'read' | 'write';
  /** The handler module, relative to the repository root; it exports `handler`. */
  handler: string;
  summary: string;
  args: Args;
  /**
   * Rewrites the events linked to the record (venue and organizer cards, unlinking on trash and
   * delete) when there are a few (lib/logic/cards.ts REQUEST_FAN_OUT); the stream consumer does
   * it for any number, so the request's time stays bounded. Its latency alarm is looser.
   */
  fansOut: boolean;
  /**
   * A create that takes `Idempotency-Key`: a repeat within a day answers what the first request
   * answered and writes nothing (lib/http/idempotency.ts).
   */
  idempotent: boolean;
  /**
   * A read whose logic checks what it read against the table's change counter as it is now: an
   * event search judges the recent writes by it (lib/logic/event-search.ts). The function reads
   * the counter for every request it revalidates cheaply (lib/http/revalidate.ts), and its entity tag and its reads kept while the counter stands
   * (lib/store/standing-reads.ts) take that one read. Other reads tag their answers with the counter
   * as the function read it a moment ago, and read it again only for `If-None-Match`.
   */
  freshCounter: boolean;
  /**
   * TEC marks the route experimental: it answers only a request whose `X-TEC-EEA` header
   * acknowledges that (TEC_V1_ACKNOWLEDGEMENT, lib/logic/tec-v1-reads.ts), after its arguments and
   * permissions are checked.
   */
  experimental: boolean;
  /** The function's timeout: API Gateway waits at most 30 s for an integration. */
  timeoutSeconds: number;
  /** What the function may do with the table (its IAM policy, enforced locally too). */
  tableActions: readonly TableAction[];
  /** More actions, on the partitions named only (sign-in data: lib/contract/grants.ts). */
  scopedGrants: readonly ScopedGrant[];
  /**
   * The sibling operations (same path, other methods) this function also runs when a request's
   * method is overridden (`?_method=DELETE` or `X-HTTP-Method-Override`, as WordPress allows): API
   * Gateway routes by the method sent, so a POST that says DELETE reaches the POST route's function.
   * Its grants include theirs (`tableActions`, `scopedGrants` above), and its handler module hands
   * their logic to the pipeline. Other functions refuse an override that names another operation.
   */
  overrides: readonly OperationId[];
}

/**
 * The reads that search events and are revalidated cheaply (lib/http/revalidate.ts): the event
 * list. `tec/v1`'s list searches too, but its answers are tagged by their bodies and read no
 * counter, so its search reads the recent writes each time.
 */
const FRESH_COUNTER = /^events\.list$/;

const FANS_OUT = /^(?:(?:venues|organizers)\.(?:update|updateBySlug|delete|deleteBySlug)|(?:tecVenues|tecOrganizers)\.(?:update|delete)|(?:categories|tags)\.delete)$/;

type ItemKind = 'events' | 'venues' | 'organizers';
type TermKind = 'categories' | 'tags';

/**
 * Every operation's arguments, by kind and operation name. The rows below take theirs from here,
 * and each handler's parameter types follow from it (`ArgsOf`).
 */
export const ARGS = {
  root: {
    site: {
      lang: {
        schema: oneOf(ROUTE_PREFIXES),
        type: 'string',
        enum: ROUTE_PREFIXES,
        required: true,
        path: true,
        description: `A language, or ${REST_PREFIX} for the site's default language`,
      },
      context: { schema: str(), type: 'string', default: 'view', description: 'Scope under which the request is made' },
    },
    index: {
      namespace: { schema: str(), type: 'string', description: 'The namespace' },
      context: { schema: str(), type: 'string', default: 'view', description: 'Scope under which the request is made' },
      ml_language: mlLanguage,
    },
    doc: { ml_language: mlLanguage },
  },
  events: eventArgs,
  venues: venueArgs,
  organizers: organizerArgs,
  categories: categoryArgs,
  tags: tagArgs,
  changes: changeArgs,
  users: userArgs,
  appPasswords: { ...appPasswordArgs, introspect: appPasswordArgs.list },
  wpTags: wpTagArgs,
  wpCategories: wpCategoryArgs,
  wpEvents: wpEventArgs,
  wpVenues: wpVenueArgs,
  wpOrganizers: wpOrganizerArgs,
  tecV1: tecV1RootArgs,
  tecEvents: tecEventArgs,
  tecVenues: tecVenueArgs,
  tecOrganizers: tecOrganizerArgs,
  webhooks: webhookArgs,
} satisfies Record<string, Record<string, Args>>;

type Table = typeof ARGS;
/** The id of every operation: `<kind>.<name>`. */
export type OperationId = { [K in keyof Table & string]: `${K}.${keyof Table[K] & string}` }[keyof Table & string];
/** The argument table of an operation, by its id. */
export type ArgsOf<Id extends OperationId> = Id extends `${infer K extends keyof Table & string}.${infer N}` ? (N extends keyof Table[K] ? Table[K][N] : never) : never;

const argsOf = (kind: string, name: string): Args => {
  const args = (ARGS as Record<string, Record<string, Args>>)[kind]?.[name];
  if (!args) throw new Error(`No arguments for ${kind}.${name}`);
  return args;
};

const noun: Record<ItemKind | TermKind, [string, string]> = {
  events: ['an event', 'events'],
  venues: ['a venue', 'venues'],
  organizers: ['an organizer', 'organizers'],
  categories: ['a category', 'categories'],
  tags: ['a tag', 'tags'],
};

/** The root's operations describe the API itself and read no record. */
const TABLELESS_KINDS = new Set(['root', 'tecV1']);

/** The rows of one API: each names its kind, operation, methods, path, access and summary. */
const rowsOf =
  (api: Api) =>
  (kind: string, name: string, methods: Method[], path: string, access: Operation['access'], summary: string): Operation => {
    const fansOut = FANS_OUT.test(`${kind}.${name}`);
    const tableless = TABLELESS_KINDS.has(kind);
    return {
      id: `${kind}.${name}`,
      api,
      methods,
      path,
      access,
      handler: `functions/${kind}/${name}.ts`,
      summary,
      args: argsOf(kind, name),
      fansOut,
      idempotent: false,
      freshCounter: FRESH_COUNTER.test(`${kind}.${name}`),
      experimental: false,
      timeoutSeconds: 10,
      tableActions: tableless ? [] : access === 'write' ? WRITE_ACTIONS : READ_ACTIONS,
      // Every function authenticates, so every function reads sign-in data and notes its use.
      scopedGrants: tableless ? [CREDENTIAL_READ, CREDENTIAL_UPDATE] : access === 'write' ? [] : [CREDENTIAL_UPDATE],
      overrides: [],
    };
  };
const row = rowsOf('tec');

/**
 * The method that carries overrides: clients that cannot send PUT, PATCH or DELETE send POST, with
 * `?_method=` or `X-HTTP-Method-Override`. The function of a path's POST route serves every other
 * operation of that path; a GET, DELETE, PUT or PATCH route's function serves its own operation
 * only (a read function holds no write grant, so it could not carry out a DELETE anyway).
 */
export const OVERRIDE_CARRIER: Method = 'POST';

/** The grants of a function that runs `ops`: every table action any of them needs, and the scoped grants not already covered. */
function unionGrants(ops: readonly Operation[]): Pick<Operation, 'tableActions' | 'scopedGrants'> {
  const actions = new Set(ops.flatMap((o) => o.tableActions));
  const tableActions = WRITE_ACTIONS.filter((a) => actions.has(a));
  const scopedGrants: ScopedGrant[] = [];
  for (const g of ops.flatMap((o) => o.scopedGrants)) {
    if (g.actions.every((a) => actions.has(a))) continue;
    if (!scopedGrants.some((h) => JSON.stringify(h) === JSON.stringify(g))) scopedGrants.push(g);
  }
  return { tableActions, scopedGrants };
}

/** Each POST route's function serves its path's other operations, with their grants added to its own. */
function withOverrides(ops: readonly Operation[]): Operation[] {
  return ops.map((op) => {
    if (!op.methods.includes(OVERRIDE_CARRIER)) return op;
    const siblings = ops.filter((o) => o !== op && o.api === op.api && o.path === op.path);
    if (siblings.length === 0) return op;
    return { ...op, ...unionGrants([op, ...siblings]), overrides: siblings.map((o) => o.id as OperationId) };
  });
}

/** WordPress's own routes for its clients: who the caller is, and their application passwords. */
function wordPressRows(): Operation[] {
  const wp = rowsOf('wp');
  const base = '/users/{user}/application-passwords';
  return [
    // Reading the caller may register them (their user id), so it has a write function's grants.
    wp('users', 'me', ['GET'], '/users/me', 'write', 'Read the signed-in user'),
    wp('appPasswords', 'list', ['GET'], base, 'read', "List a user's application passwords"),
    wp('appPasswords', 'create', ['POST'], base, 'write', 'Create an application password'),
    wp('appPasswords', 'deleteAll', ['DELETE'], base, 'write', "Revoke all of a user's application passwords"),
    wp('appPasswords', 'introspect', ['GET'], `${base}/introspect`, 'read', 'Read the application password of this request'),
    wp('appPasswords', 'get', ['GET'], `${base}/{uuid}`, 'read', 'Read an application password'),
    wp('appPasswords', 'delete', ['DELETE'], `${base}/{uuid}`, 'write', 'Revoke an application password'),
    // WordPress's core term routes, over the same terms as TEC's: tags are post tags, and TEC's
    // categories are the `tribe_events_cat` taxonomy. Deleting one unlinks its events.
    ...(
      [
        ['wpTags', '/tags', 'a tag', 'tags'],
        ['wpCategories', '/tribe_events_cat', 'an event category', 'event categories'],
      ] as const
    ).flatMap(([kind, path, one, many]) => [
      wp(kind, 'list', ['GET'], path, 'read', `List ${many}`),
      wp(kind, 'create', ['POST'], path, 'write', `Create ${one}`),
      wp(kind, 'get', ['GET'], `${path}/{id}`, 'read', `Read ${one}`),
      wp(kind, 'update', EDITABLE, `${path}/{id}`, 'write', `Update ${one}`),
      { ...wp(kind, 'delete', ['DELETE'], `${path}/{id}`, 'write', `Delete ${one}`), fansOut: true },
    ]),
    // WordPress's core post-type routes, over the same records as TEC's routes: read only.
    ...(
      [
        ['wpEvents', '/tribe_events', 'an event', 'events'],
        ['wpVenues', '/tribe_venue', 'a venue', 'venues'],
        ['wpOrganizers', '/tribe_organizer', 'an organizer', 'organizers'],
      ] as const
    ).flatMap(([kind, path, one, many]) => [wp(kind, 'list', ['GET'], path, 'read', `List ${many}`), wp(kind, 'get', ['GET'], `${path}/{id}`, 'read', `Read ${one}`)]),
  ];
}

/**
 * TEC's `tec/v1` namespace: its index, its OpenAPI document, and the same events, venues and
 * organizers as the v1 routes, each with list, create, read, update (PUT and PATCH, no POST) and
 * delete, as TEC registers them. Every record route is experimental.
 */
function tecV1Rows(): Operation[] {
  const v = rowsOf('tecV1');
  const experimental = (op: Operation): Operation => ({ ...op, experimental: true });
  return [
    v('tecV1', 'index', ['GET'], '', 'read', 'Namespace index of tec/v1'),
    ...(
      [
        ['tecEvents', '/events', 'an event', 'events'],
        ['tecOrganizers', '/organizers', 'an organizer', 'organizers'],
        ['tecVenues', '/venues', 'a venue', 'venues'],
      ] as const
    ).flatMap(([kind, path, one, many]) =>
      [
        v(kind, 'list', ['GET'], path, 'read', `List ${many}`),
        { ...v(kind, 'create', ['POST'], path, 'write', `Create ${one}`), idempotent: true },
        v(kind, 'get', ['GET'], `${path}/{id}`, 'read', `Read ${one}`),
        v(kind, 'update', ['PUT', 'PATCH'], `${path}/{id}`, 'write', `Update ${one}`),
        v(kind, 'delete', ['DELETE'], `${path}/{id}`, 'write', `Trash or delete ${one}`),
      ].map(experimental),
    ),
    v('tecV1', 'docs', ['GET'], '/docs', 'read', 'OpenAPI description of tec/v1'),
  ];
}

/** List, create, get, update and delete: what every kind has. */
function crudRows(kind: ItemKind | TermKind, deleteSummary: string): Operation[] {
  const [one, many] = noun[kind];
  const base = `/${kind}`;
  return [
    row(kind, 'list', ['GET'], base, 'read', `List ${many}`),
    { ...row(kind, 'create', ['POST'], base, 'write', `Create ${one}`), idempotent: true },
    row(kind, 'get', ['GET'], `${base}/{id}`, 'read', `Read ${one}`),
    row(kind, 'update', EDITABLE, `${base}/{id}`, 'write', `Update ${one}`),
    row(kind, 'delete', ['DELETE'], `${base}/{id}`, 'write', `${deleteSummary} ${one}`),
  ];
}

/** Events, venues and organizers are also addressed by slug. */
function itemRows(kind: ItemKind): Operation[] {
  const [one] = noun[kind];
  const base = `/${kind}/by-slug/{slug}`;
  // TEC registers these routes as GET, DELETE, then the edit methods.
  const [list, create, get, update, trash] = crudRows(kind, 'Trash or delete');
  return [
    list!,
    create!,
    get!,
    trash!,
    update!,
    row(kind, 'getBySlug', ['GET'], base, 'read', `Read ${one} by slug`),
    row(kind, 'deleteBySlug', ['DELETE'], base, 'write', `Trash or delete ${one} by slug`),
    row(kind, 'updateBySlug', EDITABLE, base, 'write', `Update ${one} by slug`),
  ];
}

/** Webhook subscriptions: editors only (lib/logic/webhooks.ts). */
function webhookRows(): Operation[] {
  const base = '/webhooks';
  return [
    row('webhooks', 'list', ['GET'], base, 'read', 'List webhook subscriptions'),
    row('webhooks', 'create', ['POST'], base, 'write', 'Subscribe a URL to signed change messages'),
    row('webhooks', 'get', ['GET'], `${base}/{uuid}`, 'read', 'Read a webhook subscription'),
    row('webhooks', 'delete', ['DELETE'], `${base}/{uuid}`, 'write', 'Delete a webhook subscription'),
    row('webhooks', 'deliveries', ['GET'], `${base}/{uuid}/deliveries`, 'read', "List a webhook's recent delivery attempts"),
  ];
}

export const OPERATIONS: readonly Operation[] = withOverrides([
  rowsOf('rest')('root', 'site', ['GET'], '/{lang}', 'read', 'REST API index: the site, its namespaces and routes'),
  row('root', 'index', ['GET'], '', 'read', 'Namespace index'),
  row('root', 'doc', ['GET'], '/doc', 'read', 'OpenAPI description of this API'),
  ...itemRows('events'),
  ...itemRows('venues'),
  ...itemRows('organizers'),
  ...crudRows('categories', 'Permanently delete'),
  ...crudRows('tags', 'Permanently delete'),
  // The change log of every kind above (lib/logic/changes.ts): what changed since a cursor.
  row('changes', 'list', ['GET'], '/changes', 'read', 'List the changes since a cursor'),
  ...webhookRows(),
  // As WordPress lists the namespaces: TEC's, its newer one, then WordPress's own.
  ...tecV1Rows(),
  ...wordPressRows(),
]);

/** Answers every request no route matches, with WordPress's `rest_no_route`. Not an operation. */
export const FALLBACK_HANDLER = 'functions/root/noRoute.ts';
export const FALLBACK_TIMEOUT_SECONDS = 10;

const byId = new Map(OPERATIONS.map((op) => [op.id, op]));
export function operation(id: string): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`Unknown operation ${id}`);
  return op;
}

/**
 * The operation of `op`'s path that serves `method` (HEAD is GET's), or undefined when the path
 * has none: where WordPress's method override sends a request that reached `op`'s route.
 */
export function operationFor(op: Operation, method: string): Operation | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  if (op.methods.includes(wanted as Method)) return op;
  return OPERATIONS.find((o) => o.api === op.api && o.path === op.path && o.methods.includes(wanted as Method));
}

/** The API Gateway route path of an operation: `/{lang}/<ns>/events/v1<path>`, `/{lang}/tec/v1<path>` or `/{lang}/wp/v2<path>`. */
export function routePath(op: Operation, namespace: string): string {
  return `${API_ROOTS[op.api](namespace)}${op.path}`;
}

/** An operation's path under one route prefix: `/wp-json/tribe/events/v1/events/{id}` (its route serves it). */
export function prefixedPath(op: Operation, namespace: string, prefix: string): string {
  return routePath(op, namespace).replace(/^\/\{lang\}/, `/${prefix}`);
}
