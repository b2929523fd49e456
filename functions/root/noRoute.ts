// The catch-all route: anything no operation matches gets WordPress's rest_no_route. One case is
// rescued: API Gateway routes are exact, so `…/events/` (TEC's own links end in a slash) would miss
// the `…/events` route; such a request is redirected, keeping its method, to the path without it.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { noRoute } from '../../lib/errors.js';
import { encode } from '../../lib/http.js';
import { matchRoute } from '../../lib/routes.js';

export const handler = async (event?: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  const path = event?.rawPath ?? '';
  const method = event?.requestContext?.http?.method ?? 'GET';
  if (path.length > 1 && path.endsWith('/') && matchRoute(method, path.slice(0, -1)).op) {
    const query = event?.rawQueryString ? `?${event.rawQueryString}` : '';
    return { statusCode: 308, headers: { location: `${path.slice(0, -1)}${query}` }, body: '' };
  }
  const err = noRoute();
  return encode({ status: err.status, body: err.body() }, {}, false);
};
