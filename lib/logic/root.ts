// The namespace index (WordPress's format, reference §9.2), generated from the operation table and
// the argument definitions, once per process and language (the OpenAPI document is lib/logic/doc.ts).
import { apiBase, config, type Lang } from '#lib/runtime/config.js';
import { json, type Reply } from '#lib/contract/reply.js';
import { argSchema, documentedArgs, type ArgDoc } from '#lib/contract/arg-docs.js';
import { OPERATIONS, type Operation } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';

/** WordPress's route key: `{id}` becomes its regex, as `/tribe/events/v1/events/(?P<id>\d+)`. */
const wpRoute = (ns: string, path: string) => `/${ns}/events/v1${path.replace('{id}', '(?P<id>\\d+)').replace('{slug}', '(?P<slug>[^/]+)')}`;

/** An argument as WordPress lists it: its JSON-Schema keywords, then `required` (always a boolean, always last). */
function argDoc(arg: ArgDoc) {
  const { type, items, format, enum: values, default: dflt } = argSchema(arg);
  return {
    ...(dflt !== undefined ? { default: dflt } : {}),
    description: arg.description,
    ...(type !== undefined ? { type } : {}),
    ...(items !== undefined ? { items } : {}),
    ...(format !== undefined ? { format } : {}),
    ...(values !== undefined ? { enum: values } : {}),
    required: arg.required === true,
  };
}

function buildIndex(lang: Lang): Record<string, unknown> {
  const cfg = config();
  const ns = `${cfg.namespace}/events/v1`;
  const base = apiBase(lang, cfg);
  const byPath = new Map<string, Operation[]>();
  // WordPress's own routes belong to its `wp/v2` namespace, not to this one.
  for (const op of OPERATIONS) if (op.api === 'tec') byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const routes: Record<string, unknown> = {};
  for (const [path, ops] of byPath) {
    routes[wpRoute(cfg.namespace, path)] = {
      namespace: ns,
      methods: [...new Set(ops.flatMap((o) => o.methods))],
      endpoints: ops.map((o) => {
        const args = Object.entries(documentedArgs(o, ns));
        // PHP encodes an empty argument list as [] (TEC's /doc route shows `"args":[]`).
        return { methods: o.methods, args: args.length ? Object.fromEntries(args.map(([name, arg]) => [name, argDoc(arg)])) : [] };
      }),
      // Only routes without path variables link to themselves.
      ...(path.includes('{') ? {} : { _links: { self: [{ href: `${base}${path}` }] } }),
    };
  }
  return { namespace: ns, routes, _links: { up: [{ href: `${cfg.siteUrl}/${lang}/` }] } };
}

const indexes = new Map<string, Record<string, unknown>>();

export async function namespaceIndex(ctx: RequestContext): Promise<Reply> {
  const key = `${config().namespace}|${apiBase(ctx.lang)}`;
  let index = indexes.get(key);
  if (!index) indexes.set(key, (index = buildIndex(ctx.lang)));
  return json(200, index);
}
