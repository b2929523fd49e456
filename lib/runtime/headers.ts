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
    const keys = Object.keys(h);
    let copy: Record<string, string | undefined> | null = null;
    if (keys.some((k) => k !== k.toLowerCase())) {
      copy = Object.create(null) as Record<string, string | undefined>;
      for (const k of keys) copy[k.toLowerCase()] ??= h[k];
    }
    lowered.set(h, (names = copy));
  }
  return names ?? NONE;
}

const NONE: Record<string, string | undefined> = Object.freeze(Object.create(null));
