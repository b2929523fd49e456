// The catch-all route: anything no operation matches gets WordPress's rest_no_route.
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { noRoute } from '../../lib/errors.js';
import { encode } from '../../lib/http.js';

export const handler = async (): Promise<APIGatewayProxyStructuredResultV2> => {
  const err = noRoute();
  return encode({ status: err.status, body: err.body() }, {}, false);
};
