// Reading a header of an API Gateway event, whatever the case of its name.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const h = event.headers ?? {};
  const lower = name.toLowerCase();
  // API Gateway gives the names in lower case: found at once, as every request reads several.
  const direct = h[lower];
  if (direct !== undefined) return direct;
  return lowerCased(h)[lower];
}

/** Each headers object's names in lower case (the first of names that differ only in case), made once: most lookups are of absent headers. */
const lowered = new WeakMap<object, Record<string, string | undefined>>();

function lowerCased(h: Record<string, string | undefined>): Record<string, string | undefined> {
  let names = lowered.get(h);
  if (!names) {
    names = Object.create(null) as Record<string, string | undefined>;
    for (const k in h) names[k.toLowerCase()] ??= h[k];
    lowered.set(h, names);
  }
  return names;
}
