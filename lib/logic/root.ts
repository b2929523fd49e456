// The namespace index (WordPress's format, reference §9.2) and the OpenAPI document (§9.1),
// both generated from the operation table.
import { apiBase, config } from '../config.js';
import { json, type Reply } from '../http.js';
import { OPERATIONS, type Operation } from '../operations.js';
import type { Arg } from '../params.js';
import type { RequestContext } from '../pipeline.js';

/** WordPress's route key: `{id}` becomes its regex, as `/tribe/events/v1/events/(?P<id>\d+)`. */
const wpRoute = (ns: string, path: string) =>
  `/${ns}/events/v1${path.replace('{id}', '(?P<id>\\d+)').replace('{slug}', '(?P<slug>[^/]+)')}`;

function argDoc(arg: Arg) {
  return {
    ...(arg.default !== undefined ? { default: arg.default } : {}),
    description: arg.description,
    ...(arg.type ? { type: arg.type } : {}),
    ...(arg.items ? { items: { type: arg.items } } : {}),
    ...(arg.format ? { format: arg.format } : {}),
    ...(arg.enum ? { enum: arg.enum } : {}),
    required: arg.required === true,
  };
}

export async function namespaceIndex(ctx: RequestContext): Promise<Reply> {
  const cfg = config();
  const ns = `${cfg.namespace}/events/v1`;
  const routes: Record<string, unknown> = {};
  const byPath = new Map<string, Operation[]>();
  for (const op of OPERATIONS) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  for (const [path, ops] of byPath) {
    const key = wpRoute(cfg.namespace, path);
    routes[key] = {
      namespace: ns,
      methods: [...new Set(ops.flatMap((o) => o.methods))],
      endpoints: ops.map((o) => ({
        methods: o.methods,
        args: Object.fromEntries(
          Object.entries(o.args).map(([name, arg]) => [
            name,
            // The root's `namespace` defaults to this namespace, which only configuration knows.
            argDoc(o.id === 'root.index' && name === 'namespace' ? { ...arg, default: ns } : arg),
          ]),
        ),
      })),
      ...(path.includes('{') ? {} : { _links: { self: [{ href: `${apiBase(ctx.lang)}${path}` }] } }),
    };
  }
  return json(200, { namespace: ns, routes, _links: { up: [{ href: `${cfg.siteUrl}/${ctx.lang}/` }] } });
}

export async function openApi(ctx: RequestContext): Promise<Reply> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    if (op.path === '') continue;
    const item = (paths[op.path] ??= {});
    for (const method of op.methods) {
      const pathArgs = Object.entries(op.args).filter(([n]) => op.path.includes(`{${n}}`));
      const otherArgs = Object.entries(op.args).filter(([n]) => !op.path.includes(`{${n}}`));
      const inBody = method !== 'GET' && method !== 'DELETE';
      item[method.toLowerCase()] = {
        operationId: method === op.methods[0] ? op.id : `${op.id}.${method.toLowerCase()}`,
        summary: op.summary,
        parameters: [
          ...pathArgs.map(([name, a]) => ({ name, in: 'path', required: true, description: a.description, schema: { type: a.type ?? 'string' } })),
          ...(inBody ? [] : otherArgs.map(([name, a]) => ({ name, in: 'query', required: a.required === true, description: a.description, schema: { type: a.type ?? 'string', ...(a.items ? { items: { type: a.items } } : {}) } }))),
        ],
        ...(inBody
          ? {
              requestBody: {
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: Object.fromEntries(otherArgs.map(([name, a]) => [name, { description: a.description, ...(a.type ? { type: a.type } : {}) }])),
                      required: otherArgs.filter(([, a]) => a.required).map(([n]) => n),
                    },
                  },
                },
              },
            }
          : {}),
        responses: { default: { description: 'A TEC-shaped JSON response or a WordPress error envelope' } },
      };
    }
  }
  return json(200, {
    openapi: '3.1.0',
    info: {
      version: '1.0.0',
      title: 'The Events Calendar REST API',
      description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
    },
    components: { schemas: {} },
    servers: [{ url: `${apiBase(ctx.lang)}/` }],
    paths,
  });
}
