// Reading a header of an API Gateway event, whatever the case of its name.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const h = event.headers ?? {};
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === lower) return v;
  return undefined;
}
