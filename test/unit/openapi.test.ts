// The self-description of the API: GET /doc (an OpenAPI 3.1 document, docs/tec-behaviour.md §9.1) and the
// namespace index (WordPress's format, docs/tec-behaviour.md §9.2), both generated from the operation table, the argument
// definitions and the presenters, WordPress's own routes (users/me, application passwords) under
// their own server, and examples that name the demo calendar's records. The document is checked
// against the OpenAPI 3.1 schema with @seriousme/openapi-schema-validator, whose meta-schemas
// ship with the package (no network).
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as docHandler } from '../../functions/root/doc.js';
import { resetConfig, type Lang } from '#lib/runtime/config.js';
import { withLinkForm } from '#lib/runtime/link-form.js';
import { invalidParams, missingParams, noRoute, tec } from '#lib/contract/errors.js';
import { lambdaContext } from '#lib/local/gateway.js';
import { matchRoute, toApiGatewayEvent } from '#lib/local/event.js';
import { openApi } from '#lib/logic/doc.js';
import { namespaceIndex, siteIndex } from '#lib/logic/root.js';
import { envelope } from '#lib/logic/lists.js';
import { openApiDocument } from '#lib/docs/openapi.js';
import { documentKey } from '#lib/docs/paths.js';
import { DEMO_RECORDS, exampleBody } from '#lib/docs/examples.js';
import { eventRecord, presentedExamples } from '#lib/docs/record-samples.js';
import { schemaDrift } from '#lib/docs/components.js';
import { documentedArgs } from '#lib/contract/arg-docs.js';
import { OPERATIONS, operation, routePath, TEC_V1_ACKNOWLEDGEMENT, type Operation } from '#lib/contract/operations.js';
import type { RequestContext } from '#lib/contract/request.js';
import { presentEvent, redact } from '#lib/present/present.js';

type Json = Record<string, any>;

const SITE = 'https://calendar.example.org';

/** TEC's /doc (reference/tec-samples/15-doc.json): its top-level keys in order, and its info. */
const TEC_DOC_KEYS = ['openapi', 'info', 'components', 'servers', 'paths'];
const TEC_INFO = {
  version: '1.0.0',
  title: 'The Events Calendar REST API',
  description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
};

/** Real TEC output, copied into the repository's test samples. */
function tecSample(name: string): Json {
  return JSON.parse(readFileSync(new URL(`../tec-samples/${name}`, import.meta.url), 'utf8'));
}

function context(opId: string, lang: Lang = 'en'): RequestContext {
  return { op: operation(opId), lang, path: {}, params: {}, input: {}, principal: undefined, method: 'GET', now: new Date() };
}

async function doc(lang: Lang = 'en'): Promise<Json> {
  return (await openApi(context('root.doc', lang))).body as Json;
}

/** Follows a local `$ref` (`#/components/<section>/<name>`). */
function deref(d: Json, value: Json): Json {
  if (!value?.$ref) return value;
  const [, , section, name] = String(value.$ref).split('/');
  const target = d.components[section!]?.[name!];
  if (!target) throw new Error(`unresolved ${value.$ref}`);
  return deref(d, target);
}

const pathNames = (op: Operation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
/** TEC's operations, whose rules the loops below encode; WordPress's have their own tests. */
// Webhook subscriptions share TEC's namespace but are this API's own: their answers are checked apart.
const WEBHOOK_OPERATIONS = OPERATIONS.filter((op) => op.id.startsWith('webhooks.'));
const TEC_OPERATIONS = OPERATIONS.filter((op) => op.api === 'tec' && !WEBHOOK_OPERATIONS.includes(op));
const WP_OPERATIONS = OPERATIONS.filter((op) => op.api === 'wp');
const SIGN_IN = [{ bearerAuth: [] }, { basicAuth: [] }];
const docPath = documentKey;
const operationIdOf = (op: Operation, method: string) => (method === op.methods[0] ? op.id : `${op.id}.${method.toLowerCase()}`);

/** A small JSON Schema checker (type, const, enum, properties, required, items, anyOf, $ref) for our own schemas. Unknown keys are errors. */
function check(value: unknown, schema: Json, root: Json, at = '$'): string[] {
  if (schema.$ref) {
    const name = String(schema.$ref).replace('#/components/schemas/', '');
    const target = root.components.schemas[name];
    return target ? check(value, target, root, at) : [`${at}: unresolved ${schema.$ref}`];
  }
  const errors: string[] = [];
  if (schema.anyOf && !schema.anyOf.some((s: Json) => check(value, s, root, at).length === 0)) errors.push(`${at}: matches none of anyOf`);
  if ('const' in schema && value !== schema.const) errors.push(`${at}: is not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  if (typeof value === 'string' && schema.pattern && !new RegExp(schema.pattern).test(value)) errors.push(`${at}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
  if (typeof value === 'string' && schema.maxLength !== undefined && value.length > schema.maxLength) errors.push(`${at}: longer than ${schema.maxLength}`);
  if (schema.type) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) errors.push(`${at}: ${actual} is not ${types.join('|')}`);
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${at}: more than ${schema.maxItems} items`);
    if (schema.items) for (const [i, v] of value.entries()) errors.push(...check(v, schema.items, root, `${at}[${i}]`));
  } else if (value && typeof value === 'object') {
    const props: Json = schema.properties ?? {};
    for (const name of schema.required ?? []) if (!(name in (value as Json))) errors.push(`${at}: lacks ${name}`);
    for (const [k, v] of Object.entries(value)) {
      if (props[k]) errors.push(...check(v, props[k], root, `${at}.${k}`));
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') errors.push(...check(v, schema.additionalProperties, root, `${at}.${k}`));
      else if (schema.properties && schema.additionalProperties !== true) errors.push(`${at}: unexpected key ${k}`);
    }
  }
  return errors;
}

beforeAll(() => {
  process.env.SITE_URL = SITE;
  resetConfig();
});
afterAll(() => {
  process.env.SITE_URL = 'http://127.0.0.1:3000';
  resetConfig();
});

describe('GET /doc: the OpenAPI 3.1 document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(await doc()));
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the validator does reject a broken document', async () => {
    const broken = structuredClone(await doc());
    delete broken.paths['/events'].get.responses;
    broken.paths['/events'].post.parameters = [{ name: 'x', in: 'body' }];
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("keeps TEC's top-level keys in TEC's order, TEC's info, and the request's API base as server", async () => {
    const d = await doc();
    expect(Object.keys(d)).toEqual(TEC_DOC_KEYS);
    expect(d.openapi).toBe('3.1.0');
    expect(d.info).toEqual(TEC_INFO);
    expect(d.servers).toEqual([{ url: `${SITE}/en/tribe/events/v1/` }]);
    expect(d.servers[0].url.endsWith('/en/tribe/events/v1/')).toBe(true);
    expect((await doc('lt')).servers[0].url).toBe(`${SITE}/lt/tribe/events/v1/`);
  });

  it("matches TEC's sample 15 in its top-level keys and info", async (_t) => {
    const sample = tecSample('15-doc.json');
    const d = await doc();
    expect(Object.keys(d)).toEqual(Object.keys(sample));
    expect(d.info).toEqual(sample.info);
    // Every path TEC documents is documented here too, with TEC's methods.
    for (const [path, item] of Object.entries<Json>(sample.paths)) {
      expect(d.paths, path).toHaveProperty([path]);
      for (const method of Object.keys(item)) expect(d.paths[path], `${method} ${path}`).toHaveProperty(method);
    }
  });

  it('holds every operation with each of its methods and its operationId', async () => {
    const d = await doc();
    const ids: string[] = [];
    for (const op of OPERATIONS) {
      const item = d.paths[docPath(op)];
      expect(item, op.id).toBeDefined();
      for (const method of op.methods) {
        const o = item[method.toLowerCase()];
        expect(o, `${method} ${op.id}`).toBeDefined();
        expect(o.operationId).toBe(operationIdOf(op, method));
        expect(o.summary).toBe(op.summary);
        expect(o.tags).toEqual([op.id.split('.')[0]]);
        ids.push(o.operationId);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(d.paths['/events/{id}'].put.operationId).toBe('events.update.put');
    expect(d.paths['/events/{id}'].patch.operationId).toBe('events.update.patch');
    // Nothing is documented that the table does not have.
    const documented = Object.values<Json>(d.paths).flatMap((item) =>
      Object.entries<Json>(item)
        .filter(([k]) => k !== 'servers')
        .map(([, o]) => o.operationId),
    );
    expect(documented.sort()).toEqual([...ids].sort());
  });

  it('documents every argument with its declared type, items, enum, default and description, in the right place', async () => {
    const d = await doc();
    for (const op of OPERATIONS) {
      const inPath = pathNames(op);
      for (const method of op.methods) {
        const o = d.paths[docPath(op)][method.toLowerCase()];
        const params: Json[] = o.parameters ?? [];
        const body = method === 'POST' || method === 'PUT' || method === 'PATCH';
        const requestBody = o.requestBody ? deref(d, o.requestBody) : undefined;
        const forms = body && requestBody ? Object.keys(requestBody.content) : [];
        if (body) expect(forms, `${method} ${op.id}`).toEqual(['application/json', 'application/x-www-form-urlencoded']);
        // As documented: the root's `namespace` defaults to the configured namespace.
        for (const [name, arg] of Object.entries(documentedArgs(op, 'tribe/events/v1'))) {
          const where = `${method} ${op.id} ${name}`;
          let schema: Json;
          if (inPath.includes(name)) {
            const p = params.find((x) => x.name === name);
            expect(p, where).toMatchObject({ in: 'path', required: true, description: arg.description });
            schema = p!.schema;
          } else if (body) {
            for (const type of forms) {
              const s = deref(d, requestBody!.content[type].schema);
              expect(s.type, where).toBe('object');
              expect(s.properties[name], `${where} (${type})`).toBeDefined();
              expect(s.properties[name].description).toBe(arg.description);
              expect((s.required ?? []).includes(name), `${where} required`).toBe(arg.required === true);
            }
            expect(
              params.some((p) => p.name === name),
              where,
            ).toBe(false);
            schema = deref(d, requestBody!.content['application/json'].schema).properties[name];
          } else {
            const p = params.find((x) => x.name === name);
            expect(p, where).toMatchObject({ in: 'query', required: arg.required === true, description: arg.description });
            if (arg.type === 'array') expect(p, where).toMatchObject({ style: 'form', explode: false });
            schema = p!.schema;
          }
          expect(schema.type, where).toBe(arg.type);
          expect(schema.items, where).toEqual(arg.items ? { type: arg.items } : undefined);
          expect(schema.enum, where).toEqual(arg.enum ? [...arg.enum] : undefined);
          expect(schema.default, where).toEqual(arg.default);
        }
        // Every parameter is an argument, a path variable or one of the HTTP headers the operation honours.
        const headers = params.filter((p) => p.in === 'header').map((p) => p.name);
        const resource = op.api === 'tec' && !op.id.startsWith('root.') && !WEBHOOK_OPERATIONS.includes(op);
        const conditions = !resource ? [] : op.access === 'read' ? ['If-None-Match'] : op.idempotent ? ['Idempotency-Key'] : inPath.length ? ['If-Match'] : [];
        expect(headers, op.id).toEqual([...(op.experimental ? ['X-TEC-EEA'] : []), ...conditions]);
        for (const p of params.filter((x) => x.in !== 'header')) expect(inPath.includes(p.name) || p.name in op.args, `${op.id} ${p.name}`).toBe(true);
      }
    }
    // The e2e expectations of TEC clients.
    expect(d.paths['/events'].get.parameters.find((p: Json) => p.name === 'page')).toMatchObject({ in: 'query', schema: { type: 'integer', default: 1 } });
    const create = deref(d, d.paths['/events'].post.requestBody);
    expect(create.required).toBe(true);
    expect(deref(d, create.content['application/json'].schema).required).toEqual(['title', 'start_date', 'end_date']);
    expect(create.content['application/x-www-form-urlencoded'].encoding.categories).toEqual({ style: 'form', explode: false });
    expect(deref(d, d.paths['/events/{id}'].patch.requestBody).required).toBe(false);
    // POST, PUT and PATCH of an update share one request body.
    const item = d.paths['/events/{id}'];
    expect(item.put.requestBody).toEqual(item.post.requestBody);
    expect(item.patch.requestBody).toEqual(item.post.requestBody);
    expect(d.paths['/events/{id}'].delete.parameters.map((p: Json) => [p.name, p.in])).toEqual([
      ['id', 'path'],
      ['force', 'query'],
      ['scope', 'query'],
      ['password', 'query'],
      ['ml_language', 'query'],
      ['If-Match', 'header'],
    ]);
    expect(d.paths['/events/{id}'].delete.parameters.find((p: Json) => p.name === 'scope').schema).toMatchObject({ enum: ['this', 'following', 'all'], default: 'this' });
    // A by-slug event update takes a new `slug` in its body (a rename) besides the one in its path.
    const bySlug = d.paths['/events/by-slug/{slug}'].post;
    expect(bySlug.parameters.find((p: Json) => p.name === 'slug')).toMatchObject({ in: 'path', required: true });
    const renamed = deref(d, deref(d, bySlug.requestBody).content['application/json'].schema).properties.slug;
    expect(renamed).toEqual({ type: 'string', description: 'A new slug for the event (renames it)' });
    expect(deref(d, deref(d, d.paths['/venues/by-slug/{slug}'].post.requestBody).content['application/json'].schema).properties.slug).toBeUndefined();
  });

  it("puts bearer tokens and application passwords on writes and WordPress's routes, and no security on TEC's reads", async () => {
    const d = await doc();
    expect(Object.keys(d.components.securitySchemes)).toEqual(['bearerAuth', 'basicAuth']);
    expect(d.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(d.components.securitySchemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(d.components.securitySchemes.basicAuth.description).toMatch(/login and an application password/);
    expect(d.security).toBeUndefined();
    for (const op of OPERATIONS) {
      for (const method of op.methods) {
        const { security } = d.paths[docPath(op)][method.toLowerCase()];
        // No lock on TEC's reads: credentials there are optional.
        expect(security, op.id).toEqual(op.access === 'write' || op.api === 'wp' ? SIGN_IN : undefined);
      }
    }
    // users.me and the password reads are wp routes; events.list a TEC read.
    expect(d.paths['/wp/v2/users/me'].get.security).toEqual(SIGN_IN);
    expect(d.paths['/wp/v2/users/{user}/application-passwords'].get.security).toEqual(SIGN_IN);
    expect(d.paths['/events'].get.security).toBeUndefined();
    expect(d.paths['/events'].post.security).toEqual(SIGN_IN);
  });

  it('declares the status codes each operation answers, from its properties, each error with the error envelope', async () => {
    const d = await doc();
    const codes = (id: string, method = 'get') => {
      const op = operation(id);
      return Object.keys(d.paths[docPath(op)][method].responses);
    };
    // Spot checks against TEC (docs/tec-behaviour.md §5-§7.2) and this API's additions: the exact set, in order.
    const all = (...c: number[]) => c.map(String);
    expect(codes('events.list')).toEqual(all(200, 304, 400, 401, 404, 500, 503));
    expect(codes('events.create', 'post')).toEqual(all(201, 400, 401, 403, 409, 413, 415, 422, 500, 503));
    expect(codes('events.get')).toEqual(all(200, 304, 400, 401, 403, 404, 500, 503));
    expect(codes('events.update', 'patch')).toEqual(all(200, 400, 401, 403, 404, 409, 412, 413, 415, 500, 503));
    expect(codes('events.delete', 'delete')).toEqual(all(200, 400, 401, 403, 404, 409, 410, 412, 413, 415, 500, 503));
    expect(codes('venues.deleteBySlug', 'delete')).toEqual(all(200, 400, 401, 403, 404, 409, 410, 412, 413, 415, 500, 503));
    expect(codes('venues.get')).toEqual(all(200, 304, 400, 401, 403, 404, 500, 503));
    expect(codes('categories.list')).toEqual(all(200, 304, 400, 401, 500, 503));
    expect(codes('categories.get')).toEqual(all(200, 304, 400, 401, 404, 500, 503));
    expect(codes('categories.delete', 'delete')).toEqual(all(200, 400, 401, 403, 404, 409, 412, 413, 415, 500, 503));
    expect(codes('tags.create', 'post')).toEqual(all(201, 400, 401, 403, 409, 413, 415, 422, 500, 503));
    expect(codes('root.doc')).toEqual(all(200, 400, 401, 500, 503));
    expect(codes('root.index')).toEqual(all(200, 400, 401, 500, 503));

    // TEC's rules, from each operation's properties: no catch-all `default`, and every code explained.
    for (const op of TEC_OPERATIONS) {
      for (const method of op.methods) {
        const { responses } = d.paths[docPath(op)][method.toLowerCase()];
        const where = `${op.id} ${method}`;
        expect(responses.default, where).toBeUndefined();
        const write = op.access === 'write';
        const inPath = pathNames(op);
        const collectionPost = inPath.length === 0 && method === 'POST';
        const success = deref(d, responses[collectionPost ? 201 : 200]);
        let record = deref(d, success.content['application/json'].schema);
        if (method === 'GET' && inPath.length === 0 && record.properties) {
          const items = Object.values<Json>(record.properties).find((p) => p.type === 'array' && p.items?.$ref);
          if (items) record = deref(d, items.items);
        }
        const postStatus = !op.id.startsWith('root.') && record.properties?.status !== undefined;
        const resource = !op.id.startsWith('root.');
        const want = [
          collectionPost ? 201 : 200,
          ...(resource && !write ? [304] : []),
          400,
          401,
          ...(write || (inPath.length > 0 && postStatus) ? [403] : []),
          ...(inPath.length > 0 || (method === 'GET' && postStatus) ? [404] : []),
          ...(write ? [409] : []),
          // A cursor past the change log's retention, or not this API's.
          ...((method === 'DELETE' && 'force' in op.args) || op.id === 'changes.list' ? [410] : []),
          ...(resource && write && inPath.length > 0 ? [412] : []),
          ...(method !== 'GET' ? [413, 415] : []),
          ...(collectionPost ? [422] : []),
          500,
          // Busy (every operation), or an unknown outcome as well (writes).
          503,
        ];
        expect(Object.keys(responses), where).toEqual(want.map(String));
      }
    }
    // Errors other operations share are components.responses, each with the error envelope.
    expect(Object.keys(d.components.responses).sort()).toEqual([
      'BadToken',
      'Busy',
      'Conflict',
      'InternalError',
      'OutcomeUnknown',
      'PayloadTooLarge',
      'Unauthorized',
      'UnsupportedMediaType',
    ]);
    expect(d.paths['/events'].post.responses[413]).toEqual({ $ref: '#/components/responses/PayloadTooLarge' });
    expect(d.paths['/events'].get.responses[503]).toEqual({ $ref: '#/components/responses/Busy' });
    expect(d.paths['/events'].post.responses[503]).toEqual({ $ref: '#/components/responses/OutcomeUnknown' });
    expect(d.paths['/events'].get.responses[401]).toEqual({ $ref: '#/components/responses/BadToken' });
    expect(d.paths['/events'].post.responses[401]).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(deref(d, d.paths['/events/{id}'].get.responses[404]).description).toContain('rest-event-not-found');
    expect(deref(d, d.paths['/venues/{id}'].get.responses[404]).description).toContain('rest_no_route');
    expect(deref(d, d.paths['/events/{id}'].delete.responses[410]).description).toContain('event-is-in-trash');

    const success: Record<string, string> = {
      list: 'List',
      create: 'item',
      get: 'item',
      getBySlug: 'item',
      update: 'item',
      updateBySlug: 'item',
      delete: 'item',
      deleteBySlug: 'item',
    };
    const item: Record<string, string> = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Term', tags: 'Term' };
    const list: Record<string, string> = {
      events: 'EventList',
      venues: 'VenueList',
      organizers: 'OrganizerList',
      categories: 'CategoryList',
      tags: 'TagList',
      changes: 'ChangeList',
    };
    for (const op of TEC_OPERATIONS) {
      const [kind, name] = op.id.split('.') as [string, string];
      for (const method of op.methods) {
        const { responses } = d.paths[docPath(op)][method.toLowerCase()];
        for (const [status, shown] of Object.entries<Json>(responses)) {
          const r = deref(d, shown);
          expect(r.description, `${op.id} ${status}`).toBeTruthy();
          const schema = r.content?.['application/json']?.schema;
          if (Number(status) >= 400) expect(schema, `${op.id} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        }
        if (kind === 'root') {
          if (name === 'index') expect(responses[200].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/NamespaceIndex' });
          continue;
        }
        const ok = name === 'create' ? '201' : '200';
        const want = success[name] === 'List' ? list[kind] : item[kind];
        expect(responses[ok].content['application/json'].schema, op.id).toEqual({ $ref: `#/components/schemas/${want}` });
        // The change log pages by cursor: no totals.
        if (kind === 'changes') expect(Object.keys(responses[200].headers)).toEqual(['ETag', 'Cache-Control']);
        else if (name === 'list') {
          expect(Object.keys(responses[200].headers)).toEqual(['X-TEC-Total', 'X-TEC-TotalPages', 'ETag', 'Cache-Control']);
          for (const h of Object.values<Json>(responses[200].headers).slice(0, 2))
            expect(d.components.headers[h.$ref.split('/').at(-1)].schema).toEqual({ type: 'integer', minimum: 0 });
        }
      }
    }
  });

  it('holds the schemas of every response', async () => {
    const { schemas } = (await doc()).components;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'Event',
        'Venue',
        'Organizer',
        'Term',
        'EventTerm',
        'Image',
        'DateDetails',
        'CostDetails',
        'EventList',
        'VenueList',
        'OrganizerList',
        'CategoryList',
        'TagList',
        'NamespaceIndex',
        'Error',
        'User',
        'AppPassword',
        'AppPasswordCreated',
        'AppPasswordList',
        'AppPasswordDeleted',
        'AppPasswordsDeleted',
      ]),
    );
    expect(schemas.Error.required).toEqual(['code', 'message', 'data']);
    expect(schemas.Error.properties.data.required).toEqual(['status']);
    expect(Object.keys(schemas.Error.properties.data.properties)).toEqual(['status', 'params', 'details']);
    expect(Object.keys(schemas.EventList.properties)).toEqual(['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect(Object.keys(schemas.CategoryList.properties)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url', 'previous_rest_url']);
  });

  it("derives Event's properties from the presenter: a presented event's keys, plus json_ld", async () => {
    const { schemas } = (await doc()).components;
    const stamp = '2027-02-01 09:00:00';
    const event = eventRecord({
      id: 9,
      status: 'draft',
      slug: 'e',
      author: 2,
      date: stamp,
      date_utc: stamp,
      modified: stamp,
      modified_utc: stamp,
      title: 'E',
      start: stamp,
      showMap: true,
      showMapLink: true,
      // An event of a series shows every key; others lack the series' two.
      recurrence: ['RRULE:FREQ=DAILY;COUNT=2'],
      seriesId: 9,
    });
    const presented = presentEvent(event, { venues: new Map(), organizers: new Map(), terms: new Map() });
    expect(Object.keys(schemas.Event.properties).sort()).toEqual([...Object.keys(presented), 'json_ld'].sort());
    // In the presenter's order (json_ld where single reads put it).
    expect(Object.keys(schemas.Event.properties)).toEqual(Object.keys(presentEvent(event, { venues: new Map(), organizers: new Map(), terms: new Map() }, true)));
    expect(schemas.Event.required).toEqual(Object.keys(presented).filter((k) => k !== 'recurrence' && k !== 'series_id'));
    expect(schemas.Event.properties.recurrence).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(schemas.Event.properties.image).toEqual(expect.objectContaining({ anyOf: [{ $ref: '#/components/schemas/Image' }, { const: false }] }));
    expect(schemas.Event.properties.start_date_details.$ref).toBe('#/components/schemas/DateDetails');
    expect(schemas.Event.properties.organizer.items).toEqual({ $ref: '#/components/schemas/Organizer' });
    expect(schemas.Event.properties.categories.items).toEqual({ $ref: '#/components/schemas/EventTerm' });
  });

  it('describes every property the presenters emit, and nothing they do not', () => {
    for (const drift of schemaDrift()) expect(drift, drift.schema).toEqual({ schema: drift.schema, undescribed: [], stale: [] });
  });

  it('presented records, redacted events, list envelopes and errors conform to their schemas', async () => {
    const d = await doc();
    const { schemas } = d.components;
    const examples = presentedExamples();
    for (const [name, values] of Object.entries(examples)) {
      for (const value of values) expect(check(value, schemas[name], d), name).toEqual([]);
    }
    const [event] = examples.Event;
    expect(check(redact(event), schemas.Event, d)).toEqual([]);
    expect(check({ ...event, all_day: 'yes' }, schemas.Event, d)).not.toEqual([]);
    expect(check({ ...event, surprise: 1 }, schemas.Event, d)).toEqual(['$: unexpected key surprise']);

    const page = envelope({ key: 'events', items: [event], collectionUrl: `${SITE}/en/tribe/events/v1/events/`, query: [['per_page', '1']], page: 2, total: 3, perPage: 1 });
    expect(Object.keys(page.body as Json)).toEqual(Object.keys(schemas.EventList.properties));
    expect(check(page.body, schemas.EventList, d)).toEqual([]);
    expect(Object.keys(page.headers ?? {})).toEqual(['X-TEC-Total', 'X-TEC-TotalPages']);
    expect(
      check(envelope({ key: 'venues', items: [], collectionUrl: `${SITE}/en/tribe/events/v1/venues/`, query: [], page: 1, total: 0, perPage: 9 }).body, schemas.VenueList, d),
    ).toEqual([]);

    for (const err of [noRoute(), invalidParams({ page: 'page is not of type integer.' }), missingParams(['title']), tec.termExists(4, true), tec.couldNotCreate('venue', 'why')]) {
      expect(check(err.body(), schemas.Error, d), err.code).toEqual([]);
    }
  });

  it('is generated once per process and language, and cannot be changed by a caller', async () => {
    const a = await doc('en');
    expect(await doc('en')).toBe(a);
    expect(openApiDocument('en')).toBe(a);
    const ru = await doc('ru');
    expect(ru).not.toBe(a);
    // TEC's path items are the same in every language; WordPress's name their language's server.
    for (const op of TEC_OPERATIONS) expect(ru.paths[docPath(op)], op.id).toBe(a.paths[docPath(op)]);
    expect(ru.paths['/wp/v2/users/me']).not.toBe(a.paths['/wp/v2/users/me']);
    expect(ru.paths['/wp/v2/users/me'].servers).toEqual([expect.objectContaining({ url: `${SITE}/ru/` })]);
    expect(Object.isFrozen(a.paths['/events'].get.parameters[0])).toBe(true);
    expect(Object.isFrozen(a.paths['/wp/v2/users/me'].servers[0])).toBe(true);
  });

  it('follows the site URL: a document per site, with its servers', async () => {
    const before = await doc('lt');
    process.env.SITE_URL = 'https://other.example.net';
    resetConfig();
    try {
      const other = await doc('lt');
      expect(other).not.toBe(before);
      expect(other.servers).toEqual([{ url: 'https://other.example.net/lt/tribe/events/v1/' }]);
      expect(other.paths['/wp/v2/users/me'].servers[0].url).toBe('https://other.example.net/lt/');
    } finally {
      process.env.SITE_URL = SITE;
      resetConfig();
    }
    expect(await doc('lt')).toBe(before);
  });

  it('is what the /doc Lambda handler answers to an API Gateway event', async () => {
    const url = '/lt/tribe/events/v1/doc';
    const match = matchRoute('GET', url);
    expect(match.op?.id).toBe('root.doc');
    const event = toApiGatewayEvent({ method: 'GET', url, headers: { host: 'calendar.example.org' } }, match);
    const res = (await docHandler(event, lambdaContext('root.doc'))) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['content-type']).toBe('application/json; charset=UTF-8');
    const body = JSON.parse(res.body!);
    expect(body).toEqual(JSON.parse(JSON.stringify(await doc('lt'))));
    expect(body.servers[0].url).toBe(`${SITE}/lt/tribe/events/v1/`);
  });
});

describe('the webhook routes in the document', () => {
  it('declare what they answer: editors only, 404 for an unknown id, the secret in the 201 alone', async () => {
    const d = await doc();
    const codes = (id: string) => {
      const op = operation(id);
      return Object.keys(d.paths[docPath(op)][op.methods[0]!.toLowerCase()].responses);
    };
    expect(codes('webhooks.list')).toEqual(['200', '400', '401', '403', '500', '503']);
    expect(codes('webhooks.create')).toEqual(['201', '400', '401', '403', '409', '413', '415', '500', '503']);
    expect(codes('webhooks.get')).toEqual(['200', '400', '401', '403', '404', '500', '503']);
    expect(codes('webhooks.delete')).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '500', '503']);
    expect(codes('webhooks.deliveries')).toEqual(['200', '400', '401', '403', '404', '500', '503']);
    const schemaOf = (id: string, status: string) => {
      const op = operation(id);
      return deref(d, d.paths[docPath(op)][op.methods[0]!.toLowerCase()].responses[status]).content['application/json'].schema;
    };
    const hook = {
      id: '7d1c0f3e-2a4b-4c5d-8e6f-9a0b1c2d3e4f',
      url: 'https://example.com/hook',
      events: ['event.*'],
      created: '2030-01-01T00:00:00.000Z',
      failing: false,
      _links: { self: [{ href: 'https://example.com/x' }], deliveries: [{ href: 'https://example.com/x/deliveries' }] },
    };
    expect(check({ ...hook, secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0' }, schemaOf('webhooks.create', '201'), d)).toEqual([]);
    expect(check(hook, schemaOf('webhooks.create', '201'), d)).not.toEqual([]);
    expect(check([hook], schemaOf('webhooks.list', '200'), d)).toEqual([]);
    expect(schemaOf('webhooks.get', '200').properties.secret).toBeUndefined();
    const attempt = {
      message_id: 'msg_x',
      type: 'event.updated',
      attempt: 1,
      time: '2030-01-01T00:00:00.000Z',
      status: null,
      duration_ms: 10000,
      outcome: 'retrying',
      error: 'no answer within 10 s',
    };
    expect(check([attempt], schemaOf('webhooks.deliveries', '200'), d)).toEqual([]);
  });
});

describe("WordPress's own routes in the document", () => {
  const WP_PATHS = [
    '/wp/v2/users/me',
    '/wp/v2/users/{user}/application-passwords',
    '/wp/v2/users/{user}/application-passwords/introspect',
    '/wp/v2/users/{user}/application-passwords/{uuid}',
    '/wp/v2/tags',
    '/wp/v2/tags/{id}',
    '/wp/v2/tribe_events_cat',
    '/wp/v2/tribe_events_cat/{id}',
    '/wp/v2/tribe_events',
    '/wp/v2/tribe_events/{id}',
    '/wp/v2/tribe_venue',
    '/wp/v2/tribe_venue/{id}',
    '/wp/v2/tribe_organizer',
    '/wp/v2/tribe_organizer/{id}',
  ];

  it("are documented under their real URLs: a path-level server <site>/<lang>/, keyed from it apart from TEC's", async () => {
    for (const lang of ['en', 'lt'] as const) {
      const d = await doc(lang);
      const wpPaths = Object.keys(d.paths).filter((k) => k.startsWith('/wp/v2/'));
      expect(wpPaths).toEqual(WP_PATHS);
      for (const path of wpPaths) expect(d.paths[path].servers, path).toEqual([{ url: `${SITE}/${lang}/`, description: expect.any(String) }]);
      // TEC's paths are below the document's server, and no key of one API is (as a template) one of the other's.
      const shape = (k: string) => k.replace(/\{[^}]*\}/g, '{}');
      const tecPaths = Object.keys(d.paths).filter((k) => !d.paths[k].servers);
      expect(tecPaths.length).toBeGreaterThan(10);
      expect(tecPaths.filter((k) => wpPaths.map(shape).includes(shape(k)))).toEqual([]);
      // Every wp operation is at its route path: the server plus the key is /{lang}/wp/v2<path>.
      for (const op of WP_OPERATIONS) {
        expect(d.paths[docPath(op)]?.servers, op.id).toBeDefined();
        expect(`${d.paths[docPath(op)].servers[0].url.replace(/\/$/, '')}${docPath(op)}`).toBe(`${SITE}${routePath(op, 'tribe').replace('{lang}', lang)}`);
      }
    }
  });

  it('answer with their real statuses, each error with the error envelope', async () => {
    const d = await doc();
    const codes = (path: string, method: string) => Object.keys(d.paths[path][method].responses).map(Number);
    expect(codes('/wp/v2/users/me', 'get')).toEqual([200, 400, 401, 409, 500, 503]);
    expect(codes('/wp/v2/users/{user}/application-passwords', 'get')).toEqual([200, 400, 401, 403, 404, 500, 503]);
    expect(codes('/wp/v2/users/{user}/application-passwords', 'post')).toEqual([201, 400, 401, 403, 404, 409, 413, 415, 500, 503]);
    expect(codes('/wp/v2/users/{user}/application-passwords', 'delete')).toEqual([200, 400, 401, 403, 404, 409, 413, 415, 500, 503]);
    expect(codes('/wp/v2/users/{user}/application-passwords/introspect', 'get')).toEqual([200, 400, 401, 403, 404, 500, 503]);
    expect(codes('/wp/v2/users/{user}/application-passwords/{uuid}', 'get')).toEqual([200, 400, 401, 403, 404, 500, 503]);
    expect(codes('/wp/v2/users/{user}/application-passwords/{uuid}', 'delete')).toEqual([200, 400, 401, 403, 404, 409, 413, 415, 500, 503]);
    for (const op of WP_OPERATIONS) {
      for (const method of op.methods) {
        const { responses } = d.paths[docPath(op)][method.toLowerCase()];
        for (const [status, shown] of Object.entries<Json>(responses)) {
          const r = deref(d, shown);
          expect(r.description, `${op.id} ${status}`).toBeTruthy();
          if (Number(status) >= 400) expect(r.content['application/json'].schema, `${op.id} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        }
      }
    }
    const text = (path: string, method: string, status: number) => deref(d, d.paths[path][method].responses[status]).description as string;
    const passwords = '/wp/v2/users/{user}/application-passwords';
    // WordPress's codes, where they can happen.
    expect(text(passwords, 'post', 400)).toContain('application_password_empty_name');
    for (const code of ['rest_not_logged_in', 'invalid_username', 'incorrect_password']) expect(text('/wp/v2/users/me', 'get', 401)).toContain(code);
    expect(text(passwords, 'get', 401)).toContain('rest_cannot_list_application_passwords');
    expect(text(passwords, 'get', 403)).toContain('rest_cannot_list_application_passwords');
    expect(text(passwords, 'post', 403)).toContain('rest_cannot_create_application_passwords');
    expect(text(passwords, 'delete', 403)).toContain('rest_cannot_delete_application_passwords');
    expect(text(`${passwords}/{uuid}`, 'get', 403)).toContain('rest_cannot_read_application_password');
    expect(text(`${passwords}/{uuid}`, 'delete', 403)).toContain('rest_cannot_delete_application_password');
    for (const code of ['rest_user_invalid_id', 'rest_application_password_not_found', 'rest_no_route']) expect(text(`${passwords}/{uuid}`, 'get', 404)).toContain(code);
    expect(text(`${passwords}/introspect`, 'get', 404)).toContain('rest_no_authenticated_app_password');
    for (const code of ['application_password_duplicate_name', 'rest_conflict']) expect(text(passwords, 'post', 409)).toContain(code);
    expect(text('/wp/v2/users/me', 'get', 409)).toContain('rest_conflict');
    // The create answers 201 with the new password's URL.
    const created = d.paths[passwords].post.responses[201];
    expect(created.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AppPasswordCreated' });
    expect(created.headers.Location).toMatchObject({ schema: { type: 'string', format: 'uri' } });
    const success: Record<string, string> = {
      'users.me': 'User',
      'appPasswords.list': 'AppPasswordList',
      'appPasswords.deleteAll': 'AppPasswordsDeleted',
      'appPasswords.introspect': 'AppPassword',
      'appPasswords.get': 'AppPassword',
      'appPasswords.delete': 'AppPasswordDeleted',
    };
    for (const [id, schema] of Object.entries(success)) {
      const op = operation(id);
      expect(d.paths[docPath(op)][op.methods[0]!.toLowerCase()].responses[200].content['application/json'].schema, id).toEqual({ $ref: `#/components/schemas/${schema}` });
    }
  });

  it('describe their path variables, query parameters and the create body', async () => {
    const d = await doc();
    const get = d.paths['/wp/v2/users/{user}/application-passwords/{uuid}'].get;
    expect(get.parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual([
      ['user', 'path', true],
      ['uuid', 'path', true],
      ['context', 'query', false],
    ]);
    expect(get.parameters[0].schema).toEqual({ type: 'string', pattern: '^(?:me|[0-9]+)$' });
    for (const ok of ['me', '0', '12']) expect(new RegExp(get.parameters[0].schema.pattern).test(ok), ok).toBe(true);
    for (const bad of ['ME', '-1', '1.5', 'me2', '']) expect(new RegExp(get.parameters[0].schema.pattern).test(bad), bad).toBe(false);
    expect(get.parameters[2].schema).toEqual({ type: 'string', enum: ['view', 'embed', 'edit'], default: 'view' });
    const input = deref(d, deref(d, d.paths['/wp/v2/users/{user}/application-passwords'].post.requestBody).content['application/json'].schema);
    expect(Object.keys(input.properties)).toEqual(['name', 'app_id']);
    expect(input.required).toEqual(['name']);
    expect(d.paths['/wp/v2/users/{user}/application-passwords'].delete.requestBody).toBeUndefined();
  });

  it('have schemas that fit what lib/logic/users.ts answers, and refuse what it does not', async () => {
    const d = await doc();
    const { schemas } = d.components;
    const base = `${SITE}/en/wp/v2`;
    const password = {
      uuid: '0b5ad0a3-7b86-4a0e-9f3f-2ec1d4a0b6a1',
      app_id: '',
      name: 'Calendar sync',
      created: '2027-01-02T10:00:00',
      last_used: null,
      last_ip: null,
      _links: { self: [{ href: `${base}/users/4/application-passwords/0b5ad0a3-7b86-4a0e-9f3f-2ec1d4a0b6a1` }] },
    };
    const used = { ...password, app_id: '6ba7b810-9dad-11d1-80b4-00c04fd430c8', last_used: '2027-01-03T08:15:00', last_ip: '203.0.113.9' };
    expect(check(password, schemas.AppPassword, d)).toEqual([]);
    expect(check(used, schemas.AppPassword, d)).toEqual([]);
    expect(check([password, used], schemas.AppPasswordList, d)).toEqual([]);
    const { _links, ...fields } = password;
    const created = { ...fields, password: 'abcd EFGH 1234 ijkl MNOP 5678', _links };
    expect(Object.keys(schemas.AppPasswordCreated.properties)).toEqual(Object.keys(created));
    expect(check(created, schemas.AppPasswordCreated, d)).toEqual([]);
    expect(check({ ...created, password: 'abcdEFGH1234ijklMNOP5678' }, schemas.AppPasswordCreated, d)).not.toEqual([]);
    expect(check({ ...created, password: 'abcd EFGH 1234 ijkl MNOP 567' }, schemas.AppPasswordCreated, d)).not.toEqual([]);
    expect(check(created, schemas.AppPassword, d)).toEqual(['$: unexpected key password']);
    expect(check({ ...password, last_ip: undefined }, schemas.AppPassword, d)).not.toEqual([]);
    expect(check({ ...password, created: '2027-01-02 10:00:00' }, schemas.AppPassword, d)).not.toEqual([]);
    expect(check({ deleted: true, previous: used }, schemas.AppPasswordDeleted, d)).toEqual([]);
    expect(check({ deleted: true, count: 3 }, schemas.AppPasswordsDeleted, d)).toEqual([]);
    expect(check({ deleted: true, count: 3, previous: used }, schemas.AppPasswordsDeleted, d)).not.toEqual([]);

    const avatar = (s: number) => `https://secure.gravatar.com/avatar/${'0'.repeat(64)}?s=${s}&d=mm&r=g`;
    const view = {
      id: 4,
      name: 'alice',
      url: '',
      description: '',
      link: `${SITE}/author/alice/`,
      slug: 'alice',
      avatar_urls: { 24: avatar(24), 48: avatar(48), 96: avatar(96) },
      meta: [],
      _links: { self: [{ href: `${base}/users/4` }], collection: [{ href: `${base}/users` }] },
    };
    const edit = {
      id: 4,
      username: 'alice',
      name: 'alice',
      first_name: '',
      last_name: '',
      email: 'alice@example.org',
      url: '',
      description: '',
      link: view.link,
      locale: 'en_US',
      nickname: 'alice',
      slug: 'alice',
      roles: ['editor'],
      capabilities: { editor: true },
      extra_capabilities: { editor: true },
      avatar_urls: view.avatar_urls,
      meta: [],
      _links: view._links,
    };
    expect(check(view, schemas.User, d)).toEqual([]);
    expect(check(edit, schemas.User, d)).toEqual([]);
    expect(Object.keys(schemas.User.properties)).toEqual(Object.keys(edit));
    expect(schemas.User.required).toEqual(Object.keys(view));
    expect(check({ ...edit, roles: ['administrator'] }, schemas.User, d)).not.toEqual([]);
    expect(check({ ...view, avatar_urls: { 24: avatar(24) } }, schemas.User, d)).not.toEqual([]);
  });
});

describe("the document's examples", () => {
  it('name a demo record for every path variable of every operation', async () => {
    const d = await doc();
    for (const op of OPERATIONS) {
      for (const method of op.methods) {
        const o = d.paths[docPath(op)][method.toLowerCase()];
        for (const p of (o.parameters ?? []) as Json[]) {
          // Path variables name a demo record; TEC's gate header is filled in so that "Try it out" passes it.
          if (p.in === 'path') expect(p.example, `${op.id} ${p.name}`).toBeDefined();
          else if (p.name === 'X-TEC-EEA') expect(p.example, `${op.id} ${p.name}`).toBe(TEC_V1_ACKNOWLEDGEMENT);
          else expect(p.example, `${op.id} ${p.name}`).toBeUndefined();
        }
      }
    }
    const example = (path: string, name: string) => d.paths[path].get.parameters.find((p: Json) => p.name === name).example;
    expect(example('/events/{id}', 'id')).toBe(DEMO_RECORDS.event.id);
    expect(example('/venues/by-slug/{slug}', 'slug')).toBe(DEMO_RECORDS.venue.slug);
    expect(example('/tags/{id}', 'id')).toBe(DEMO_RECORDS.tag.id);
    expect(example('/wp/v2/users/{user}/application-passwords/{uuid}', 'user')).toBe('me');
    expect(example('/wp/v2/users/{user}/application-passwords/{uuid}', 'uuid')).toBe(DEMO_RECORDS.appPassword.uuid);
  });

  it('give every request body only the fields to send, valid against its schema, in both media types', async () => {
    const d = await doc();
    for (const [name, body] of Object.entries<Json>(d.components.requestBodies)) {
      const json = body.content['application/json'];
      const schema = deref(d, json.schema);
      expect(json.example, name).toBeDefined();
      expect(body.content['application/x-www-form-urlencoded'].example, name).toEqual(json.example);
      expect(check(json.example, schema, d), name).toEqual([]);
      for (const required of schema.required ?? []) expect(json.example, `${name} ${required}`).toHaveProperty([required]);
      // A few fields, not every property with a placeholder.
      expect(Object.keys(json.example).length, name).toBeGreaterThan(0);
      // (Unless every property is required.)
      expect(Object.keys(json.example).length, name).toBeLessThan(Math.max(2, Object.keys(schema.properties).length, (schema.required?.length ?? 0) + 1));
    }
    expect(exampleBody(operation('events.create'))).toEqual({
      title: 'Picnic in the Park',
      start_date: '2030-06-01 12:00:00',
      end_date: '2030-06-01 15:00:00',
    });
    expect(exampleBody(operation('venues.create'))).toEqual({ venue: 'Park Bandstand' });
    expect(exampleBody(operation('events.update'))).toEqual({ description: 'Changed from the API reference.' });
    expect(exampleBody(operation('appPasswords.create'))).toEqual({ name: 'Calendar sync' });
    expect(exampleBody(operation('events.get'))).toBeUndefined();
  });
});

describe('the REST index', () => {
  it('is documented at /{lang} below the site, with the prefixes as the values of its variable', async () => {
    const d = await doc('lt');
    const item = d.paths['/{lang}'];
    expect(item.servers).toEqual([{ url: `${SITE}/`, description: expect.any(String) }]);
    expect(item.get.operationId).toBe('root.site');
    expect(item.get.parameters[0]).toMatchObject({ name: 'lang', in: 'path', required: true, example: 'wp-json', schema: { enum: ['en', 'lt', 'ru', 'wp-json'] } });
  });

  it('conforms to the RestIndex schema of /doc, in every link form', async () => {
    const d = await doc();
    for (const form of ['lang', 'wp-json', 'rest_route'] as const) {
      const body = (await withLinkForm(form, () => siteIndex(context('root.site', 'ru')))).body as Json;
      expect(check(body, d.components.schemas.RestIndex, d), form).toEqual([]);
      expect(Object.keys(body)).toEqual(Object.keys(d.components.schemas.RestIndex.properties));
    }
  });
});

describe('the namespace index', () => {
  const index = async (lang: Lang = 'en') => (await namespaceIndex(context('root.index', lang))).body as Json;

  it('conforms to the NamespaceIndex schema of /doc', async () => {
    const d = await doc();
    expect(check(await index(), d.components.schemas.NamespaceIndex, d)).toEqual([]);
  });

  it("has every TEC operation as an endpoint of its route, with its arguments as WordPress lists them, and none of WordPress's own", async () => {
    const { routes } = await index();
    expect(Object.keys(routes).every((route) => route.startsWith('/tribe/events/v1'))).toBe(true);
    expect(Object.keys(routes).filter((route) => /users|application-passwords/.test(route))).toEqual([]);
    for (const op of TEC_OPERATIONS) {
      const key = `/tribe/events/v1${op.path.replace('{id}', '(?P<id>\\d+)').replace('{slug}', '(?P<slug>[^/]+)')}`;
      const endpoint = routes[key]?.endpoints.find((e: Json) => e.methods.join() === op.methods.join());
      expect(endpoint, op.id).toBeDefined();
      expect(Object.keys(endpoint.args), op.id).toEqual(Object.keys(op.args));
      for (const [name, arg] of Object.entries(op.args)) {
        const a = endpoint.args[name];
        expect(Object.keys(a).at(-1), `${op.id} ${name}`).toBe('required');
        expect(a.required).toBe(arg.required === true);
        expect(a.description).toBe(arg.description);
        expect(a.type).toBe(arg.type);
        if (arg.items) expect(a.items).toEqual({ type: arg.items });
      }
    }
    expect(routes['/tribe/events/v1'].endpoints[0].args.namespace.default).toBe('tribe/events/v1');
  });

  it("matches TEC's sample 16 key by key, apart from our extra arguments", async (_t) => {
    const sample = tecSample('16-namespace-index.json');
    const ours = await index();
    expect(Object.keys(ours)).toEqual(Object.keys(sample));
    expect(ours.namespace).toBe(sample.namespace);
    expect(Object.keys(ours._links)).toEqual(Object.keys(sample._links));
    expect(ours._links.up).toEqual([{ href: `${SITE}/en/` }]);
    // TEC's routes, the change log's and the webhooks', which TEC does not have.
    expect(
      Object.keys(ours.routes)
        .filter((route) => !route.includes('/webhooks'))
        .sort(),
    ).toEqual([...Object.keys(sample.routes), '/tribe/events/v1/changes'].sort());
    const keywords = new Set(['default', 'description', 'type', 'items', 'format', 'enum', 'required']);
    for (const [route, theirs] of Object.entries<Json>(sample.routes)) {
      const mine = ours.routes[route];
      expect(Object.keys(mine), route).toEqual(Object.keys(theirs));
      expect([...mine.methods].sort(), route).toEqual([...theirs.methods].sort());
      if (theirs._links) expect(mine._links.self, route).toEqual([{ href: `${SITE}/en${route}` }]);
      expect(mine.endpoints.length, route).toBe(theirs.endpoints.length);
      for (const te of theirs.endpoints) {
        const me = mine.endpoints.find((e: Json) => [...e.methods].sort().join() === [...te.methods].sort().join());
        expect(me, `${route} ${te.methods}`).toBeDefined();
        expect(Object.keys(me)).toEqual(Object.keys(te));
        for (const [name, arg] of Object.entries<Json>(Array.isArray(te.args) ? {} : te.args)) {
          const a = me.args[name];
          expect(a, `${route} ${te.methods} ${name}`).toBeDefined();
          expect(
            Object.keys(a).every((k) => keywords.has(k)),
            `${route} ${name}`,
          ).toBe(true);
          expect(Object.keys(a).at(-1)).toBe('required');
          expect(typeof a.required).toBe(typeof arg.required);
        }
      }
    }
  });

  it('is generated once per process and language', async () => {
    expect(await index('en')).toBe(await index('en'));
    expect((await index('lt'))._links.up).toEqual([{ href: `${SITE}/lt/` }]);
  });
});
