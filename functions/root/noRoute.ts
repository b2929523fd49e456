// The catch-all route: anything no operation matches gets WordPress's rest_no_route. Three cases are
// answered instead:
// - a CORS preflight (OPTIONS) of a route that exists gets 200 with WordPress's CORS headers (the
//   HTTP API has no CORS configuration of its own, so that every answer carries WordPress's);
// - `GET /` is the site root: a small page with WordPress's and TEC's discovery headers;
// - `…/events/` (TEC's own links end in a slash, and HTTP API routes cannot) is redirected,
//   keeping its method, to the path without the slash.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { config, REST_PREFIX } from '#lib/runtime/config.js';
import { discoveryHeaders, sitePage } from '#lib/http/discovery.js';
import { noRoute } from '#lib/contract/errors.js';
import { encode } from '#lib/http/codec.js';
import { wpShaped } from '#lib/http/wp-query.js';
import { json } from '#lib/contract/reply.js';
import type { Method } from '#lib/contract/operations.js';
import { matchRoute } from '#lib/contract/routes.js';
import { observe } from '#lib/observe/invocation.js';

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

async function answer(event: APIGatewayProxyEventV2 | undefined): Promise<APIGatewayProxyStructuredResultV2> {
  const path = event?.rawPath ?? '';
  const method = event?.requestContext?.http?.method ?? 'GET';
  if (method === 'OPTIONS') {
    const methods = METHODS.filter((m) => matchRoute(m, path).op);
    if (methods.length) {
      const allow = methods.join(', ');
      return encode(json(200, { namespace: `${config().namespace}/events/v1`, methods }), { allow }, event);
    }
  }
  // The site root, as a WordPress site's home page: its discovery headers (a `?rest_route=` that no
  // CDN rewrote still reaches no route).
  if ((method === 'GET' || method === 'HEAD') && path === '/' && !/(?:^|&)rest_route=/.test(event?.rawQueryString ?? '')) return sitePage(config(), method === 'HEAD');
  if (path.length > 1 && path.endsWith('/') && matchRoute(method, path.slice(0, -1)).op) {
    const query = event?.rawQueryString ? `?${event.rawQueryString}` : '';
    return { statusCode: 308, headers: { location: `${path.slice(0, -1)}${query}` }, body: '' };
  }
  const err = noRoute();
  const shaped = wpShaped({ status: err.status, body: err.body() as unknown, headers: {} }, undefined, event?.rawQueryString, undefined).reply;
  return encode(shaped, discoveryHeaders(`${config().siteUrl}/${REST_PREFIX}/`, undefined), event);
}

export const handler = (event?: APIGatewayProxyEventV2, context?: Context): Promise<APIGatewayProxyStructuredResultV2> =>
  // No credentials are looked at here: every caller is anonymous.
  observe({ operation: 'root.noRoute', event, functionRequestId: context?.awsRequestId, role: () => 'anonymous' }, () => answer(event));
