// Route matching with the operation table, exactly as an HTTP API matches its routes. The local
// gateway routes with it, and the fallback function uses it to tell a trailing slash from a miss.
import { config } from '#lib/runtime/config.js';
import { FALLBACK_HANDLER, OPERATIONS, routePath, type Operation } from './operations.js';

export interface RouteMatch {
  /** The matched operation; undefined for the `$default` fallback. */
  op?: Operation;
  /** The handler module path, relative to the repository root. */
  handler: string;
  /** `GET /{lang}/tribe/events/v1/events/{id}`, or `$default`. */
  routeKey: string;
  /** Decoded captures; undefined when the route has none (and for the fallback). */
  pathParameters?: Record<string, string>;
}

interface CompiledRoute {
  op: Operation;
  template: string;
  segments: string[];
}

let compiled: { namespace: string; routes: CompiledRoute[] } | undefined;
function routes(namespace: string): CompiledRoute[] {
  if (compiled?.namespace !== namespace) {
    compiled = {
      namespace,
      routes: OPERATIONS.map((op) => {
        const template = routePath(op, namespace);
        return { op, template, segments: template.split('/').slice(1) };
      }),
    };
  }
  return compiled.routes;
}

/** decodeURIComponent that leaves malformed escapes as they are. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const PARAM_RE = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * Finds the operation for `method` and `path` (the raw, still-encoded path without query).
 * Literal segments must be equal; `{name}` segments take any single non-empty segment. One
 * trailing slash is tolerated. HEAD is served by GET routes. No match gives the fallback.
 */
export function matchRoute(method: string, path: string, namespace = config().namespace): RouteMatch {
  const verb = method.toUpperCase();
  const wanted = verb === 'HEAD' ? 'GET' : verb;
  let trimmed = path;
  if (trimmed.length > 1 && trimmed.endsWith('/')) trimmed = trimmed.slice(0, -1);
  if (!trimmed.startsWith('/')) return fallback();
  const segments = trimmed.split('/').slice(1);
  for (const route of routes(namespace)) {
    if (!(route.op.methods as string[]).includes(wanted)) continue;
    if (route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      const tpl = route.segments[i]!;
      const seg = segments[i]!;
      const param = PARAM_RE.exec(tpl);
      if (param) {
        if (seg === '') ok = false;
        else params[param[1]!] = safeDecode(seg);
      } else if (tpl !== seg) {
        ok = false;
      }
    }
    if (!ok) continue;
    return {
      op: route.op,
      handler: route.op.handler,
      routeKey: `${wanted} ${route.template}`,
      pathParameters: Object.keys(params).length ? params : undefined,
    };
  }
  return fallback();
}

function fallback(): RouteMatch {
  return { handler: FALLBACK_HANDLER, routeKey: '$default' };
}
