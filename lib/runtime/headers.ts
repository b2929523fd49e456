// Reading a header of an API Gateway event, whatever the case of its name.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const h = event.headers ?? {};
  const lower = name.toLowerCase();
  // API Gateway gives the names in lower case: found at once, as every request reads several.
  const direct = h[lower];
  if (direct !== undefined) return direct;
  for (const k in h) if (k.toLowerCase() === lower) return h[k];
  return undefined;
}
