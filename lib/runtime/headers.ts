// Reading a header of an API Gateway event, whatever the case of its name.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const h = event.headers ?? {};
  const lower = name.toLowerCase();
  // API Gateway gives the names in lower case: found at once, as every request reads several.
  const direct = Object.hasOwn(h, lower) ? h[lower] : undefined;
  if (direct !== undefined) return direct;
  return lowerCased(h)[lower];
}

/**
 * Each headers object's names in lower case (the first of names that differ only in case), made
 * once: most lookups are of absent headers. Names already all in lower case (API Gateway's) need no
 * copy: an absent name is then simply absent.
 */
const lowered = new WeakMap<object, Record<string, string | undefined> | null>();

function lowerCased(h: Record<string, string | undefined>): Record<string, string | undefined> {
  let names = lowered.get(h);
  if (names === undefined) {
    names = null;
    for (const k of Object.keys(h)) {
      if (k === k.toLowerCase()) continue;
      names = Object.create(null) as Record<string, string | undefined>;
      for (const n of Object.keys(h)) names[n.toLowerCase()] ??= h[n];
      break;
    }
    lowered.set(h, names);
  }
  return names ?? NONE;
}

const NONE: Record<string, string | undefined> = Object.freeze(Object.create(null));
