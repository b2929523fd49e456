// The shared pipeline every handler runs, as middy middlewares in the usual order: the method's
// dispatch, route checks with request decoding, language, authentication and WordPress-style
// validation, then the operation; after it the write count, and the error mapping last.
// middy's core imports Node's web streams for its streaming mode, which no answer here uses: the
// bundles alias that import to lib/http/lazy-web-streams.ts, so a cold start does not load them.
import middy, { type MiddlewareObj, type Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Principal } from '#lib/contract/principal.js';
import { challengeFor, identify } from '#lib/auth/sign-in.js';
import { config, restRoot, type Lang, type LinkForm } from '#lib/runtime/config.js';
import { withLinkForm } from '#lib/runtime/link-form.js';
import {
  ApiError,
  Busy,
  BUSY_RETRY_AFTER_S,
  busy,
  ConflictError,
  Contention,
  forbidden,
  noRoute,
  OUTCOME_RETRY_AFTER_S,
  OutcomeUnknown,
  outcomeUnknown,
} from '#lib/contract/errors.js';
import { abortAfter, loggingWrites, WriteLog } from '#lib/store/transactions.js';
import { beforeTimeout, FunctionTimeoutError, settleMs as settleWindow, withDeadline } from '#lib/runtime/deadline.js';
import { encode, parseBody, parseFormLike } from './codec.js';
import { header } from '#lib/runtime/headers.js';
import type { Input } from '#lib/contract/request.js';
import type { ImportedRecord, ImportingContext } from '#lib/contract/imported.js';
import type { Reply } from '#lib/contract/reply.js';
import { operation, operationFor, prefixLanguage, type ArgsOf, type Operation, type OperationId } from '#lib/contract/operations.js';
import { takesHtml, type HtmlFilters } from '#lib/contract/params.js';
import { isEditor } from '#lib/auth/permissions.js';
import { callerRole, logError } from '#lib/observe/log.js';
import { observe } from '#lib/observe/invocation.js';
import { cacheControl, entityTag, noneMatch, VARY } from './conditional.js';
import { heldTag, revalidationScope, scopeDigest, scopedTag } from './revalidate.js';
import { bumpValidator, keptValidator, readValidator, settled as counterSettled, settleMs, type Validator } from '#lib/store/validators.js';
import { whileStanding } from '#lib/store/standing-reads.js';
import type { Result as Encoded } from './idempotency.js';
import { wantsEnvelope, wpShaped } from './wp-query.js';
import { discoveryHeaders } from './discovery.js';
import type { Logic, RequestContext } from '#lib/contract/request.js';
import { validateArgs } from '#lib/contract/validate.js';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;
/**
 * The decoded request travels from the route step to the operation on the Lambda context, with the
 * sign-in's bookkeeping when it runs beside the request (lib/auth/sign-in.ts).
 */
type ContextWithRequest = Context & ImportingContext & { request?: RequestContext; aside?: Promise<void>; chosen?: Chosen };

/**
 * What the dispatch step chose: the operation the request's method names (its own or a sibling it
 * serves), the event as that operation sees it, and the log of a write operation's writes, so that
 * a failure after one says that it may be stored.
 */
interface Chosen {
  run: Runner;
  event: Event;
  writes?: WriteLog;
}
type Step = MiddlewareObj<Event, Result, Error, ContextWithRequest>;

function pathCaptures(event: Event, op: Operation): { lang: Lang } & RequestContext['path'] {
  const p = event.pathParameters ?? {};
  // API Gateway matches `{lang}` and `{id}` against any segment; TEC's routes are narrower.
  const lang = prefixLanguage(p.lang);
  if (!lang) throw noRoute();
  const out: { lang: Lang } & RequestContext['path'] = { lang };
  if (op.path.includes('{id}')) {
    if (!p.id || !/^\d+$/.test(p.id)) throw noRoute();
    // TEC's routes take any digits: `/events/0` is a 404 for a missing record, not a missing route.
    out.id = Number(p.id);
    if (!Number.isSafeInteger(out.id)) throw noRoute();
  }
  if (op.path.includes('{slug}')) {
    // API Gateway hands path parameters over already percent-decoded.
    const slug = p.slug ?? '';
    if (slug === '' || slug.includes('/')) throw noRoute();
    out.slug = slug;
  }
  if (op.path.includes('{user}')) {
    // WordPress's route takes `me` or digits.
    const user = p.user ?? '';
    if (user === 'me') out.user = 'me';
    else if (/^\d+$/.test(user) && Number.isSafeInteger(Number(user))) out.user = Number(user);
    else throw noRoute();
  }
  if (op.path.includes('{uuid}')) {
    if (!p.uuid || p.uuid.includes('/')) throw noRoute();
    out.uuid = p.uuid;
  }
  return out;
}

/**
 * The form of the URL the request used, which its links keep: a language prefix, `/wp-json/…`, or
 * `?rest_route=…` (rewritten to `/wp-json/…` before routing, its query kept: lib/contract/rest-route.ts).
 */
function linkFormOf(event: Event): LinkForm {
  const prefix = event.pathParameters?.lang;
  if (prefix === undefined || prefixLanguage(prefix) === prefix) return 'lang';
  return /(?:^|&)rest_route=/.test(event.rawQueryString ?? '') ? 'rest_route' : 'wp-json';
}

/** The REST root in the form of the request's URL (`<site>/wp-json/`, `<site>/en/`, `…?rest_route=/`), for the discovery header. */
function apiRoot(event: Event): string {
  return `${restRoot(prefixLanguage(event.pathParameters?.lang) ?? config().defaultLang)}/`;
}

/** Checks and decodes the request, and identifies the caller: `context.request`, or a thrown ApiError. */
const routeRequest = (op: Operation, filters: HtmlFilters | undefined) => {
  // The arguments the path carries (`path: true` in the argument table, as `Params` types them).
  const skip = Object.entries(op.args)
    .filter(([, arg]) => arg.path)
    .map(([name]) => name);
  return async (event: Event, context: ContextWithRequest): Promise<void> => {
    const method = event.requestContext?.http?.method ?? 'GET';
    const captures = pathCaptures(event, op);
    // Writes authenticate before anything about their input is looked at (docs/tec-behaviour.md §1.3), so that
    // an anonymous write is 401 whether or not its body parses; reads validate first, as TEC does.
    const facts = { ip: event.requestContext?.http?.sourceIp, now: new Date() };
    let principal: Principal | undefined;
    if (op.access === 'write') {
      principal = await identify(header(event, 'authorization'), facts);
      // WordPress's own routes answer anonymous callers with their own words.
      if (!principal && (op.api === 'tec' || op.api === 'tecV1')) throw forbidden(false);
    }
    const query = parseFormLike(event.rawQueryString ?? '');
    const body = method === 'GET' || method === 'HEAD' ? {} : parseBody(event, config().maxBodyBytes);
    // Path captures are not taken from the query or body (TEC lets a body `id` win, which would
    // let a request aim its permission check at one record and its write at another).
    const input: Input = Object.assign(Object.create(null) as Input, query, body);
    const params = validateArgs(op.args, input, {
      skip,
      unfilteredHtml: isEditor(principal),
      filters,
      schemaDetails: op.api === 'wp' || op.api === 'rest',
      plainRefusals: op.api === 'tecV1',
    });
    // A read does not wait for the sign-in's bookkeeping: it runs beside the read, and the answer waits for it.
    if (op.access === 'read') principal = await identify(header(event, 'authorization'), facts, (task) => (context.aside = task));
    const lang = (params.ml_language as Lang | undefined) ?? captures.lang;
    context.request = {
      op,
      lang,
      path: { id: captures.id, slug: captures.slug, user: captures.user, uuid: captures.uuid },
      params,
      input,
      principal,
      shared: !principal && header(event, 'authorization') === undefined && input.password === undefined,
      method,
      ifMatch: op.access === 'write' ? header(event, 'if-match') : undefined,
      ...(op.experimental ? { acknowledgement: header(event, 'x-tec-eea') ?? null } : {}),
      ip: facts.ip,
      now: facts.now,
      ...(context.imported ? { imported: context.imported } : {}),
    };
  };
};

/**
 * Any failure as WordPress answers it: an ApiError as it says, a lost race as 409, the rest as a
 * logged 500; each of them means that nothing was written. A failure after a write of the
 * operation landed, or while one may still land, is a 503 that says the outcome is unknown and
 * how to learn it (`create`: the operation is a create, retried with its Idempotency-Key).
 */
function wpError(err: unknown, event: Event, writes?: WriteLog, create = false, allow?: string): Result {
  // `?_envelope` wraps an error as it wraps any answer: 200, with the error's status and headers inside.
  const answer = (status: number, body: unknown, headers: Record<string, string>): Result => {
    const shaped = wpShaped({ status, body, headers }, undefined, event.rawQueryString, allow).reply;
    return encode({ status: shaped.status, body: shaped.body }, { ...discoveryHeaders(apiRoot(event), shaped.headers), ...shaped.headers }, event);
  };
  // Whatever the operation still does after this answer, it writes nothing more.
  if (writes) writes.closed = true;
  if (err instanceof OutcomeUnknown || writes?.mayHaveWritten) {
    if (!(err instanceof OutcomeUnknown)) logError(err);
    const unknown = outcomeUnknown(create);
    return answer(503, unknown.body(), { 'retry-after': String(OUTCOME_RETRY_AFTER_S) });
  }
  if (err instanceof ApiError) {
    // TEC's message stays; the header tells a client which credentials the API takes.
    const challenge: Record<string, string> = err.status === 401 ? { 'www-authenticate': challengeFor(header(event, 'authorization')) } : {};
    // An answer that says when to come back (busy()) says it in the header clients read too.
    const retry = err.extra.retry_after;
    const later: Record<string, string> = typeof retry === 'number' ? { 'retry-after': String(retry) } : {};
    return answer(err.status, err.body(), { ...challenge, ...later });
  }
  if (err instanceof Busy || err instanceof Contention || err instanceof FunctionTimeoutError) {
    // Overloaded or out of time before anything was written: the client sends it again later.
    if (err instanceof FunctionTimeoutError) logError(err);
    return answer(503, busy().body(), { 'retry-after': String(BUSY_RETRY_AFTER_S) });
  }
  if (err instanceof ConflictError) {
    // Still losing races after the retries: nothing was written, and the client may try again.
    const conflict = new ApiError(409, 'rest_conflict', 'The record was changed by another request at the same time; nothing was written. Try again.');
    return answer(409, conflict.body(), {});
  }
  logError(err);
  return answer(500, { code: 'rest_internal_error', message: 'The server could not complete the request.', data: { status: 500 } }, {});
}

/**
 * A successful read gets its entity tag, and a 304 when the caller already holds it; a shared
 * cache may keep it only when nobody was identified (no credentials sent, no post password given).
 * A write's answer carries the tag of the record it shows. `scoped`: the digest of a cheaply
 * revalidated read's scope (lib/http/revalidate.ts), when the table had settled; other answers are
 * tagged with the digest of their body.
 */
function conditional(reply: Reply, req: RequestContext, event: Event, scoped?: string): { reply: Reply; headers: Record<string, string>; body: string } {
  const body = reply.text ?? JSON.stringify(reply.body);
  const ok = reply.status >= 200 && reply.status < 300;
  const read = req.method === 'GET' || req.method === 'HEAD';
  if (!ok || (!read && !reply.revision)) return { reply, headers: {}, body };
  const held = header(event, 'if-none-match');
  // The body's digest: the tag, unless the scope's digest is; and what a tag given out while the
  // table was settling is compared with (the same body answers 304 to it, with the tag it has now).
  const digested = read && scoped !== undefined && held === undefined ? undefined : entityTag(body, reply.revision, JSON.stringify(reply.headers ?? {}));
  const tag = read && scoped !== undefined ? scopedTag(scoped, reply.revision) : digested!;
  const headers = { etag: tag, 'cache-control': cacheControl(config(), read && req.shared === true) };
  if (read && (noneMatch(held, tag) || (digested !== undefined && noneMatch(held, digested)))) return { reply: { status: 304, body: '' }, headers, body: '' };
  return { reply, headers, body };
}

/**
 * The conditional part of a cheaply revalidated read: the digest of its scope at the counter's
 * current state, and `held`, the tag of `If-None-Match` made from it (the answer is then a 304, its
 * logic not run). `settled`: whether the answer may be tagged with the digest (the counter has not
 * moved in the last `settleMs()`, so every write it counts is in every read). That also makes the
 * tag safe when the counter is read beside the answer's reads rather than before them: a write the
 * answer missed but the counter counts was bumped after the answer's first read, within the
 * settling time, so such an answer is tagged with its body's digest, never with a newer state.
 */
async function revalidation(counter: () => Promise<Validator>, scope: string | undefined, event: Event): Promise<{ digest: string; settled: boolean; held?: string } | undefined> {
  if (scope === undefined) return undefined;
  const validator = await counter();
  const digest = scopeDigest(scope, validator.stamp);
  const settled = counterSettled(validator, settleMs());
  return { digest, settled, held: heldTag(header(event, 'if-none-match'), digest) };
}

/**
 * The operation's answer and the counter read beside it, once both have settled (nothing of the
 * request may still run after its answer). The operation's failure is the request's; a failed
 * counter read only costs the answer its cheap tag (its body's digest stands in).
 */
async function besideCounter<T, C>(answer: Promise<T>, counter: Promise<C>): Promise<[T, C | undefined]> {
  const [a, c] = await Promise.allSettled([answer, counter]);
  if (a.status === 'rejected') throw a.reason;
  if (c.status === 'rejected') logError(c.reason);
  return [a.value, c.status === 'fulfilled' ? c.value : undefined];
}

/**
 * After a write operation that may have written: the table's change counter moves before the
 * client hears of it (lib/store/validators.ts). Should the bump fail, the stream consumer's bump
 * for the same change makes up for it a moment later; the answer still goes out.
 */
async function countWrite(writes: WriteLog | undefined, imported?: ImportedRecord): Promise<void> {
  if (!writes?.mayHaveWritten || imported?.unobserved) return;
  try {
    // Within the time left for answering: past it, the client would get the platform's 500 instead.
    await bumpValidator(undefined, undefined, abortAfter(settleWindow()));
  } catch (err) {
    logError(err);
  }
}

/** Runs a create once per caller and `Idempotency-Key` (lib/http/idempotency.ts); `run` is given the create's key when the request is a try of one (every try takes the id the first took). */
export type Once = (op: Operation, caller: string | undefined, event: Event, context: Context, run: (createKey?: string) => Promise<Encoded>) => Promise<Encoded>;

/** What only some functions carry, given by their handler modules so that other bundles do not. */
export interface HandleOptions {
  /** The idempotency wrapper (lib/http/idempotency.ts), for the operations the table marks `idempotent`. */
  once?: Once;
  /** The save-time HTML filters (lib/contract/html-filters.ts), for operations with arguments filtered as HTML. */
  html?: HtmlFilters;
  /**
   * The logic of the sibling operations this function serves when the request's method is
   * overridden (the operation table's `overrides`), made with `serves`.
   */
  overrides?: readonly Served[];
}

/** A sibling operation a function runs for an overridden method: its id, logic and HTML filters. */
export interface Served {
  op: Operation;
  logic: Logic;
  html?: HtmlFilters;
}

/** A sibling operation's logic, for `handle`'s `overrides`. */
export function serves<Id extends OperationId>(opId: Id, logic: Logic<ArgsOf<Id>>, options: Pick<HandleOptions, 'html'> = {}): Served {
  const op = operation(opId);
  if (op.idempotent) throw new Error(`${opId}: an idempotent operation is served by its own route only`);
  if (takesHtml(op.args) !== (options.html !== undefined)) throw new Error(`${opId}: the HTML filters are given if and only if an argument of the operation is filtered as HTML`);
  return { op, logic: logic as unknown as Logic, html: options.html };
}

/**
 * The method the request asks for: WordPress's `serve_request` takes `_method` from the query
 * string first, else the `X-HTTP-Method-Override` header (upper-cased by WP_REST_Request); none:
 * the method sent.
 */
export function requestedMethod(event: Event): string {
  const sent = event.requestContext?.http?.method ?? 'GET';
  let wanted: string | undefined;
  for (const [name, value] of new URLSearchParams(event.rawQueryString ?? '')) if (name === '_method') wanted = value;
  wanted ??= header(event, 'x-http-method-override');
  return wanted === undefined ? sent : wanted.trim().toUpperCase();
}

/** A GET, DELETE, PUT or PATCH route's function asked to run another operation of its path. */
const overrideRefused = (sent: string, wanted: string) =>
  new ApiError(
    405,
    'rest_method_override_refused',
    `A ${sent} request cannot be carried out as ${wanted} here: send ${wanted} itself, or POST with _method=${wanted} (or X-HTTP-Method-Override: ${wanted}).`,
  );

/**
 * An answer before its encoding (which adds what the request alone decides: CORS, HEAD): its status
 * and headers, and its body as sent. One whose tag is its scope's digest (`scoped`: the counter had
 * settled) is the answer of every request of that scope while the counter shows that state, as its
 * 304 is: the scope names everything else it depends on. A read that takes the counter as it is now
 * (`freshCounter`) keeps it in the process while the counter stands (lib/store/standing-reads.ts).
 */
interface Answer {
  reply: Pick<Reply, 'status' | 'headers'>;
  headers: Record<string, string>;
  body: string;
  scoped: boolean;
}

/** The longest answer kept, in characters (a page of events is a few tens of thousands; most feeds are longer). */
const KEPT_ANSWER_CHARS = 128 * 1024;

/**
 * The scopes asked for lately, the most recent last (at most ASKED_SCOPES), and whether each one's
 * answer may be kept. An answer is kept from its scope's second request on, so that requests that
 * are each new (a crawler's, a client's unique parameter) neither keep answers nobody asks for again
 * nor push out those that are; nor does a scope whose answer was too long to keep.
 */
const asked = new Map<string, 'asked' | 'too long'>();
const ASKED_SCOPES = 1024;

function keptAnswer(scope: string, counter: () => Promise<Validator>, answer: () => Promise<Answer>): Promise<Answer> {
  const key = scopeDigest(scope, '');
  const before = asked.get(key);
  asked.delete(key);
  if (asked.size >= ASKED_SCOPES) asked.delete(asked.keys().next().value!);
  asked.set(key, before ?? 'asked');
  if (before !== 'asked') return answer();
  const keepable = (a: Answer): boolean => {
    if (a.body.length > KEPT_ANSWER_CHARS) asked.set(key, 'too long');
    return a.scoped && a.reply.status >= 200 && a.reply.status < 300 && a.body.length <= KEPT_ANSWER_CHARS;
  };
  return whileStanding(
    `answer|${key}`,
    counter().catch(() => undefined),
    answer,
    false,
    keepable,
  );
}

/** One operation a function runs: its own, or a sibling it serves for an overridden method. */
interface Runner {
  op: Operation;
  route: (event: Event, context: ContextWithRequest) => Promise<void>;
  operate: (event: Event, context: ContextWithRequest) => Promise<Result>;
}

function runner(op: Operation, logic: Logic, html: HtmlFilters | undefined, once: Once): Runner {
  const allow = op.methods.join(', ');
  // An experimental route's answer depends on its acknowledgement header too.
  const vary: Record<string, string> = op.experimental ? { vary: `${VARY}, X-TEC-EEA` } : {};
  const route = routeRequest(op, html);
  const operate = (event: Event, context: ContextWithRequest): Promise<Result> => {
    return once(op, context.request!.principal?.sub, event, context, async (createKey) => {
      const given = createKey === undefined ? context.request! : { ...context.request!, createKey };
      // A read that the counter tags reads it once, for its tag and for its logic. With a tag to
      // check (`If-None-Match`), or for a read that checks what it read against the counter
      // (`freshCounter`), as it is now: a match then answers 304 without running the operation, and
      // the logic may use it (lib/contract/request.ts). Else as this process read it a moment ago
      // (keptValidator), beside the operation's own reads in the same round trip (a counter read
      // after a write the answer missed has moved within the settling time, so the answer then
      // gets its body's digest, never a tag newer than itself: see `revalidation`).
      const conditionalGet = header(event, 'if-none-match') !== undefined;
      const fresh = conditionalGet || op.freshCounter;
      let counter: Promise<Validator> | undefined;
      const read = () => (counter ??= fresh ? readValidator() : keptValidator());
      const scope = revalidationScope(given, event, linkFormOf(event));
      const req: RequestContext = scope !== undefined && fresh ? { ...given, counter: read } : given;
      const early = conditionalGet ? await revalidation(read, scope, event) : undefined;
      if (early?.held) {
        const headers = { etag: early.held, 'cache-control': cacheControl(config(), req.shared === true) };
        return encode(
          { status: 304, body: '' },
          { ...discoveryHeaders(apiRoot(event), undefined), ...(wantsEnvelope(event.rawQueryString) ? {} : { allow }), ...vary, ...headers },
          event,
          '',
        );
      }
      // `_fields` and `_envelope` shape the answer before its entity tag is taken, so a tag names what was sent.
      const answer = async (): Promise<Answer> => {
        const [reply, cheap] = conditionalGet ? [await logic(req), early] : await besideCounter(logic(req), revalidation(read, scope, event));
        const shaped = wpShaped(reply, req.input._fields, event.rawQueryString, allow);
        const done = conditional(shaped.reply, req, event, cheap?.settled ? cheap.digest : undefined);
        const discovery = discoveryHeaders(apiRoot(event), done.reply.headers);
        return {
          reply: { status: done.reply.status, headers: done.reply.headers },
          headers: { ...discovery, ...(shaped.enveloped ? {} : { allow }), ...vary, ...done.headers },
          body: done.body,
          scoped: cheap?.settled === true,
        };
      };
      // A read that takes the counter as it is now keeps its answer while the counter stands (see `Answer`).
      const kept = scope !== undefined && fresh && !conditionalGet ? await keptAnswer(scope, read, answer) : await answer();
      return encode({ ...kept.reply, body: undefined }, kept.headers, event, kept.body);
    });
  };
  return { op, route, operate };
}

/**
 * After a write operation, its writes counted (`countWrite`), whether it answered or failed; the
 * error mapping comes after it, so that a failure's answer goes out once the count has moved.
 */
const countedWrites: Step = {
  after: ({ context }) => countWrite(context.chosen?.writes, context.imported),
  onError: ({ context }) => countWrite(context.chosen?.writes, context.imported),
};

/**
 * The last step of every failure: any error as WordPress answers it (`wpError`), for the operation
 * the request's method chose (its own when the failure came before the choice).
 */
function wordPressErrors(op: Operation): Step {
  return {
    onError: (request: Request<Event, Result, Error, ContextWithRequest>) => {
      const target = request.context.chosen?.run.op ?? op;
      request.response = wpError(request.error, request.event, request.context.chosen?.writes, target.idempotent, target.methods.join(', '));
    },
  };
}

/**
 * Builds the Lambda handler of one operation from its logic. What the operation table says an
 * operation needs (the idempotency wrapper, the HTML filters, the siblings it serves for an
 * overridden method) its handler module passes in, so that only its bundle carries it; a module
 * that passes too much or too little fails at load.
 */
export function handle<Id extends OperationId>(opId: Id, logic: Logic<ArgsOf<Id>>, options: HandleOptions = {}) {
  const op = operation(opId);
  if (op.idempotent !== (options.once !== undefined)) throw new Error(`${opId}: the idempotency wrapper is given if and only if the operation table marks it idempotent`);
  if (takesHtml(op.args) !== (options.html !== undefined)) throw new Error(`${opId}: the HTML filters are given if and only if an argument of the operation is filtered as HTML`);
  const served = (options.overrides ?? []).map((s) => s.op.id).sort();
  if (JSON.stringify(served) !== JSON.stringify([...op.overrides].sort())) {
    throw new Error(
      `${opId}: the operations served for an overridden method are the ones the operation table names (${op.overrides.join(', ') || 'none'}), given: ${served.join(', ') || 'none'}`,
    );
  }
  const once: Once = options.once ?? ((_op, _caller, _event, _context, run) => run());
  const direct: Once = (_op, _caller, _event, _context, run) => run();
  const runners = new Map<string, Runner>([[op.id, runner(op, logic as unknown as Logic, options.html, once)]]);
  for (const s of options.overrides ?? []) runners.set(s.op.id, runner(s.op, s.logic, s.html, direct));

  /** The operation the request's method names, and the event as that operation sees it (its method). */
  const dispatch = (event: Event): Chosen => {
    const sent = event.requestContext?.http?.method ?? 'GET';
    const wanted = requestedMethod(event);
    const chosen = (run: Runner, seen: Event): Chosen => ({ run, event: seen, writes: run.op.access === 'write' ? new WriteLog() : undefined });
    if (wanted === sent) return chosen(runners.get(op.id)!, event);
    const target = operationFor(op, wanted);
    // WordPress: no handler of the route takes that method.
    if (!target) throw noRoute();
    const run = runners.get(target.id);
    if (!run) throw overrideRefused(sent, wanted);
    return chosen(run, { ...event, requestContext: { ...event.requestContext, http: { ...event.requestContext.http, method: wanted } } });
  };

  const steps = middy<Event, Result, Error, ContextWithRequest>({ timeoutEarlyInMillis: 0 })
    .use(wordPressErrors(op))
    .use(countedWrites)
    .use({ before: ({ event, context }) => void (context.chosen = dispatch(event)) })
    .use({ before: ({ context }) => context.chosen!.run.route(context.chosen!.event, context) })
    .handler(async (_event, context) => {
      const { run, event, writes } = context.chosen!;
      const work = writes ? loggingWrites(writes, () => run.operate(event, context)) : run.operate(event, context);
      return beforeTimeout(context.getRemainingTimeInMillis(), work);
    });

  return (event: Event, context: ContextWithRequest): Promise<Result> => {
    // Lambda gives each invocation a context of its own, but a caller (a test) may reuse one: a
    // request that fails before routing must not log the previous request's caller.
    context.request = undefined;
    context.aside = undefined;
    context.chosen = undefined;
    // The request's scopes (its deadline, link form and log context) hold across every step, so
    // they wrap the chain: a middleware's before and after cannot keep an async scope open.
    return observe(
      { operation: op.id, event, functionRequestId: context.awsRequestId, role: () => callerRole(context.request?.principal) },
      // Lambda may freeze the process once the answer is out: nothing may still be running.
      () => withDeadline(context.getRemainingTimeInMillis(), () => withLinkForm(linkFormOf(event), () => steps(event, context).finally(() => context.aside))),
    );
  };
}
