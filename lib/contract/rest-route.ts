// WordPress's `?rest_route=` URLs (`/?rest_route=/tribe/events/v1/events&page=2`, also
// `/index.php?rest_route=…`: sites without pretty permalinks, and clients written for them).
// API Gateway routes on the path only, so such a request is rewritten to the REST prefix before it
// is routed (`/wp-json/tribe/events/v1/events?rest_route=…&page=2`), and served by the route's own
// function in one invocation. The query is kept whole: it is part of the CDN's cache key, and
// `rest_route` in it tells the handler to write its links in that form (lib/http/pipeline.ts).
//
// The rewrite is a CloudFront viewer-request function (infra/cdn.ts), and the local gateway runs
// the same source (lib/local/gateway.ts). Its language is CloudFront's JavaScript runtime 2.0, a
// subset of ES2020: no imports, no Node.
import { REST_PREFIX } from '#lib/runtime/config.js';

/**
 * The function's source. `rest_route` is taken as PHP reads it (the last of several, `+` a space,
 * percent-escapes decoded), its trailing slashes dropped as WordPress does (`untrailingslashit`),
 * and its segments encoded again for the path. A route that does not start with `/` reaches no
 * route in WordPress either: such a request, and any other, passes unchanged.
 */
export const REST_ROUTE_FUNCTION = `function handler(event) {
  var request = event.request;
  if (request.uri !== '/' && request.uri !== '/index.php') return request;
  var param = request.querystring.rest_route;
  if (!param) return request;
  var raw = param.multiValue ? param.multiValue[param.multiValue.length - 1].value : param.value;
  var route;
  try {
    route = decodeURIComponent(String(raw).replace(/\\+/g, ' '));
  } catch (e) {
    return request;
  }
  if (route.charAt(0) !== '/') return request;
  route = route.replace(/\\/+$/, '');
  request.uri = '/${REST_PREFIX}' + route.split('/').map(encodeURIComponent).join('/') + (route === '' ? '/' : '');
  return request;
}
`;
