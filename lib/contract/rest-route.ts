// The CDN's viewer-request function: the site's own URLs that API Gateway cannot route, rewritten
// to the REST routes that answer them, before the cache and the origin see the request.
//
// 1. WordPress's `?rest_route=` URLs (`/?rest_route=/tribe/events/v1/events&page=2`, also
//    `/index.php?rest_route=…`: sites without pretty permalinks, and clients written for them).
//    API Gateway routes on the path only, so such a request is rewritten to the REST prefix
//    (`/wp-json/tribe/events/v1/events?rest_route=…&page=2`), and served by the route's own
//    function in one invocation. The query is kept whole: it is part of the CDN's cache key, and
//    `rest_route` in it tells the handler to write its links in that form (lib/http/pipeline.ts).
// 2. TEC's calendar feeds at the site root (`/events/?ical=1`, `/events/month/?ical=1`,
//    `/events/category/<slug>/?ical=1`, `/event/<slug>/?ical=1`, the plain-permalink forms…): a
//    GET or HEAD with `ical` (or `outlook-ical`) in its query, on a path of TEC's views, becomes
//    the REST feed of the same events (`/wp-json/tribe/events/v1/events?ical=1&…`, or an
//    event's `/events/by-slug/<slug>?ical=1`). The query is replaced by the REST list's
//    arguments: the view's window, its category, tag or search, and TEC's 30 events a view
//    exports. The path forms and the query arguments TEC reads are tables below.
//
// The function runs on CloudFront (infra/cdn.ts), and the local gateway runs the same source
// (lib/local/edge.ts). Its language is CloudFront's JavaScript runtime 2.0, a subset of ES2020:
// no imports, no Node.
import { REST_PREFIX } from '#lib/runtime/config.js';

/** How many events TEC's views export (its `tribe_ical_feed_posts_per_page`, 30 by default). */
export const VIEW_FEED_EVENTS = 30;

/**
 * The function's source, for the API's namespace word.
 *
 * `rest_route` is taken as PHP reads it (the last of several, `+` a space, percent-escapes
 * decoded), its trailing slashes dropped as WordPress does (`untrailingslashit`), and its segments
 * encoded again for the path. A route that does not start with `/` reaches no route in WordPress
 * either: such a request passes unchanged.
 *
 * A feed's path is matched as TEC's rewrite rules match it, with or without its trailing slash:
 * `/events/` and a view after it (VIEWS), optionally after `category/<slug>/` (a child category's
 * `category/<parent>/<slug>/` too) or `tag/<slug>/` (ARCHIVES); `/event/<slug>/`; and at the
 * root `/` (or `/index.php`) with `post_type=tribe_events`, `tribe_events_cat=<slug>` or
 * `tribe_events=<slug>`. Query arguments win over the path, as in WordPress: `eventDisplay`
 * (list, month, day) over the path's view, `tribe-bar-date` (then `eventDate`) over its date, and
 * the arguments of PASSED over the archive's. A date must be `YYYY-MM` or `YYYY-MM-DD` (anything
 * else is ignored), and any other view (`past`, the premium views) passes unchanged.
 */
export const viewerRequestFunction = (namespace: string): string => `var REST = '/${REST_PREFIX}/${namespace}/events/v1';
var VIEW_EVENTS = '${VIEW_FEED_EVENTS}';
${VIEWER_REQUEST}`;

/** The function's source after its constants: the same for every namespace. */
const VIEWER_REQUEST = `// TEC's views as its URLs name them after /events/: [path, view, the date's group].
var VIEWS = [
  [/^(?:list)?$/, 'list'],
  [/^month$/, 'month'],
  [/^(?:month\\/)?(\\d{4}-\\d{2})$/, 'month', 1],
  [/^today$/, 'day'],
  [/^(\\d{4}-\\d{2}-\\d{2})$/, 'day', 1],
];
// The archives under /events/ and the REST list's filter each one is.
var ARCHIVES = { category: 'categories', tag: 'tags' };
// Query arguments TEC's views read, and the REST list's argument each one becomes.
var PASSED = { tribe_events_cat: 'categories', 'tribe-bar-search': 'search' };
var DISPLAYS = { list: 'list', month: 'month', day: 'day' };
var DATE = /^\\d{4}-\\d{2}(?:-\\d{2})?$/;

function last(q, name) {
  var param = q[name];
  if (!param) return undefined;
  return param.multiValue ? param.multiValue[param.multiValue.length - 1].value : param.value;
}

function decoded(raw, plus) {
  try {
    return decodeURIComponent(plus ? String(raw).replace(/\\+/g, ' ') : String(raw));
  } catch (e) {
    return undefined;
  }
}

function restRoute(request) {
  if (request.uri !== '/' && request.uri !== '/index.php') return false;
  var raw = last(request.querystring, 'rest_route');
  if (!raw) return false;
  var route = decoded(raw, true);
  if (route === undefined || route.charAt(0) !== '/') return false;
  route = route.replace(/\\/+$/, '');
  request.uri = '/${REST_PREFIX}' + route.split('/').map(encodeURIComponent).join('/') + (route === '' ? '/' : '');
  return true;
}

function viewOf(path) {
  for (var i = 0; i < VIEWS.length; i++) {
    var m = VIEWS[i][0].exec(path);
    if (m) return { view: VIEWS[i][1], date: VIEWS[i][2] ? m[VIEWS[i][2]] : undefined };
  }
  return undefined;
}

// The view, date and filters a path of /events/ names, or undefined.
function archiveOf(segments) {
  var filter = ARCHIVES[segments[0]];
  if (filter && Object.prototype.hasOwnProperty.call(ARCHIVES, segments[0])) {
    for (var k = Math.min(2, segments.length - 2); k >= 0; k--) {
      var found = viewOf(segments.slice(segments.length - k).join('/'));
      var slug = segments[segments.length - k - 1];
      if (found && slug) {
        found.filters = {};
        found.filters[filter] = decoded(slug, false);
        return found;
      }
    }
    return undefined;
  }
  var plain = viewOf(segments.join('/'));
  if (plain) plain.filters = {};
  return plain;
}

// The REST list's window for a view: TEC's list from now (or the date), a day, a month.
function windowOf(view, date) {
  if (view === 'month') return { month: date || 'now' };
  var day = date && date.length === 7 ? date + '-01' : date;
  if (view === 'day') return day ? { ends_after: day + ' 00:00:00', starts_before: day + ' 23:59:59' } : { ends_after: 'today', starts_before: 'today 23:59:59' };
  return { ends_after: day ? day + ' 00:00:00' : 'now' };
}

function feed(request) {
  var q = request.querystring;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!q.ical && !q['outlook-ical']) return false;
  var path = request.uri.replace(/\\/+$/, '');
  var slug;
  var found;
  var single = /^\\/event\\/([^\\/]+)$/.exec(path);
  if (single) slug = decoded(single[1], false);
  else if (path === '' || path === '/index.php') {
    if (q.tribe_events) slug = decoded(last(q, 'tribe_events'), true);
    else if (last(q, 'post_type') === 'tribe_events' || q.tribe_events_cat) found = { view: 'list', filters: {} };
    else return false;
  } else if (path === '/events' || path.indexOf('/events/') === 0) {
    found = archiveOf(path === '/events' ? [] : path.slice(8).split('/'));
    if (!found) return false;
  } else return false;

  if (slug !== undefined) {
    if (!slug) return false;
    request.uri = REST + '/events/by-slug/' + encodeURIComponent(slug);
    request.querystring = { ical: { value: '1' } };
    return true;
  }
  var display = last(q, 'eventDisplay');
  if (display !== undefined) {
    if (!Object.prototype.hasOwnProperty.call(DISPLAYS, display)) return false;
    found.view = DISPLAYS[display];
  }
  var date = decoded(last(q, 'tribe-bar-date') || last(q, 'eventDate') || '', true);
  if (date && DATE.test(date)) found.date = date;
  var args = windowOf(found.view, found.date);
  for (var name in PASSED) {
    var value = last(q, name);
    if (value !== undefined) found.filters[PASSED[name]] = decoded(value, true);
  }
  for (var filter in found.filters) if (found.filters[filter]) args[filter] = found.filters[filter];
  var out = { ical: { value: '1' }, strict_dates: { value: '1' }, ical_limit: { value: VIEW_EVENTS } };
  for (var arg in args) out[arg] = { value: encodeURIComponent(args[arg]) };
  request.uri = REST + '/events';
  request.querystring = out;
  return true;
}

function handler(event) {
  var request = event.request;
  if (!restRoute(request)) feed(request);
  return request;
}
`;
