// The OpenAPI document of TEC's `tec/v1` namespace (`/tec/v1/docs`), in the form TEC serves it
// (OpenAPI 3.0, its operation ids, tags, HTTP Basic security and status codes), generated from the
// operation table and the argument definitions like the API's own document (openapi.ts): its
// server is this API's `tec/v1` root, and the record schemas are inferred from what the `tec/v1`
// presenters return for the representative records (record-samples.ts).
import { config, restRoot, type Lang } from '#lib/runtime/config.js';
import { argSchema, pathNames } from '#lib/contract/arg-docs.js';
import { OPERATIONS, type Operation } from '#lib/contract/operations.js';
import { presentTecEvent, presentTecOrganizer, presentTecVenue } from '#lib/present/tec-v1.js';
import { inferSchema, ref, type Json } from './json-schema.js';
import { storedSamples } from './record-samples.js';

/** Each kind's schema name, and its operation ids as TEC names them. */
const KINDS: Record<string, { schema: string; one: string; many: string; ids: Record<string, string> }> = {
  tecEvents: { schema: 'Event', one: 'an Event', many: 'Events', ids: { list: 'getEvents', create: 'createEvent', get: 'getEvent', update: 'updateEvent', delete: 'deleteEvent' } },
  tecOrganizers: {
    schema: 'Organizer',
    one: 'an Organizer',
    many: 'organizers',
    ids: { list: 'getOrganizers', create: 'createOrganizer', get: 'getOrganizer', update: 'updateOrganizer', delete: 'deleteOrganizer' },
  },
  tecVenues: { schema: 'Venue', one: 'a Venue', many: 'venues', ids: { list: 'getVenues', create: 'createVenue', get: 'getVenue', update: 'updateVenue', delete: 'deleteVenue' } },
};

/** A record route's 400: TEC checks the acknowledgement header after the arguments and the permission. */
const REFUSED = 'A parameter is invalid, or the X-TEC-EEA acknowledgement header is missing';

/** TEC's status codes of each operation, and what each means. */
const STATUSES: Record<string, Record<string, string>> = {
  list: { 200: 'The page of records; X-WP-Total and X-WP-TotalPages name their total and pages', 400: REFUSED, 404: 'The page is past the last' },
  create: { 201: 'The created record', 400: REFUSED, 401: 'Not signed in', 403: 'Not allowed', 500: 'The record could not be created' },
  get: { 200: 'The record', 400: REFUSED, 401: 'Not signed in, and the record is not public', 403: 'The record is not readable by the caller', 404: 'The record was not found' },
  update: {
    200: 'The updated record',
    400: REFUSED,
    401: 'Not signed in',
    403: 'Not allowed',
    404: 'The record was not found',
    500: 'The record could not be updated',
  },
  delete: {
    200: 'An empty list: the record was trashed or deleted',
    400: REFUSED,
    401: 'Not signed in',
    403: 'Not allowed',
    404: 'The record was not found',
    410: 'The record is already in the trash',
    500: 'The record could not be deleted',
    501: 'The record cannot be trashed',
  },
};

/** OpenAPI 3.0 has no list of types: a null beside a type is `nullable`, a null alone any value that may be null. */
function openApi30(schema: Json): Json {
  const out: Json = { ...schema };
  if (Array.isArray(out.type)) {
    const types = (out.type as string[]).filter((t) => t !== 'null');
    if (types.length < (out.type as string[]).length) out.nullable = true;
    if (types.length === 1) out.type = types[0];
    else delete out.type;
  } else if (out.type === 'null') {
    delete out.type;
    out.nullable = true;
  }
  if (out.items) out.items = openApi30(out.items as Json);
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties as Json).map(([k, v]) => [k, openApi30(v as Json)]));
  return out;
}

/**
 * The record schemas, inferred from what the presenters show of the representative records, named
 * `<prefix>Event`, `<prefix>Venue` and `<prefix>Organizer`.
 */
export function tecV1Schemas(prefix: string): Record<string, Json> {
  const s = storedSamples();
  const now = new Date(Date.UTC(2027, 0, 1));
  const asJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as Json;
  const events = [presentTecEvent(s.event, s.linked, now, true), presentTecEvent(s.bareEvent, s.none, now, true)].map(asJson);
  const schema = (examples: Json[], description: string) => ({ ...inferSchema(examples), description });
  return {
    [`${prefix}Event`]: schema(events, 'An event of tec/v1: WordPress’s view of the post with the properties TEC adds'),
    [`${prefix}Organizer`]: schema([presentTecOrganizer(s.organizer), presentTecOrganizer(s.bareOrganizer)].map(asJson), 'An organizer of tec/v1'),
    [`${prefix}Venue`]: schema([presentTecVenue(s.venue), presentTecVenue(s.bareVenue)].map(asJson), 'A venue of tec/v1'),
  };
}

/** TEC's own error body beside WordPress's envelope: `{"error": "…"}` (a record of another kind, one already trashed). */
const TEC_ERROR: Json = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };

/**
 * The responses of a `tec/v1` operation, TEC's status codes with their bodies: the record schemas
 * as `record` names them, errors in WordPress's envelope (`error`) or TEC's own.
 */
export function tecV1Responses(op: Operation, record: (schema: string) => Json, error: Json): Record<string, Json> {
  const [kind, name] = op.id.split('.') as [string, string];
  const docs = KINDS[kind];
  if (!docs) {
    const what = name === 'index' ? 'The routes of tec/v1 and their arguments' : 'This OpenAPI document of tec/v1';
    return {
      200: { description: what, content: { 'application/json': { schema: { type: 'object' } } } },
      400: { description: 'A parameter is invalid', content: { 'application/json': { schema: error } } },
    };
  }
  const one = record(docs.schema);
  return Object.fromEntries(
    Object.entries(STATUSES[name]!).map(([code, description]) => {
      const ok = code === '200' || code === '201';
      const own = (name === 'update' || name === 'delete') && (code === '404' || code === '410');
      // A path no route matches (an id that is no number) answers WordPress's envelope there too.
      const schema = own ? { anyOf: [TEC_ERROR, error] } : !ok ? error : name === 'list' ? { type: 'array', items: one } : name === 'delete' ? { type: 'array', maxItems: 0 } : one;
      return [code, { description, content: { 'application/json': { schema } } }];
    }),
  );
}

function operationDoc(op: Operation): Json {
  const [kind, name] = op.id.split('.') as [string, string];
  const docs = KINDS[kind];
  const signed = op.access === 'write';
  if (!docs) {
    return {
      summary: op.summary,
      security: [],
      description: op.summary,
      operationId: 'getOpenApiDocs',
      tags: ['Common'],
      parameters: [],
      responses: tecV1Responses(op, ref, ref('Error')),
    };
  }
  const path = new Set(pathNames(op.path));
  const body = op.methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH');
  const args = Object.entries(op.args).filter(([n]) => n !== 'ml_language');
  const parameters = args
    .filter(([n]) => path.has(n) || !body)
    .map(([n, arg]) => ({ name: n, in: path.has(n) ? 'path' : 'query', description: arg.description, required: path.has(n) || arg.required === true, schema: argSchema(arg) }));
  const requestBody = body
    ? {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: Object.fromEntries(args.filter(([n]) => !path.has(n)).map(([n, arg]) => [n, { ...argSchema(arg), description: arg.description }])),
            },
          },
        },
      }
    : undefined;
  const responses = tecV1Responses(op, ref, ref('Error'));
  const verb = { list: 'Retrieve', create: 'Create', get: 'Retrieve', update: 'Update', delete: 'Delete' }[name] ?? name;
  return {
    summary: `${verb} ${name === 'list' ? docs.many : docs.one}`,
    security: signed ? [{ BasicAuth: [] }, { BearerAuth: [] }] : [],
    description: `${op.summary}.${op.experimental ? ' Experimental: send the X-TEC-EEA header that acknowledges it.' : ''}`,
    operationId: docs.ids[name],
    tags: ['Events'],
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

const documents = new Map<string, Json>();

/** The document for one language: its server is that language's `tec/v1` root. Built once per server. */
export function tecV1Document(lang: Lang): Json {
  const server = `${restRoot(lang, config())}/tec/v1`;
  let doc = documents.get(server);
  if (!doc) documents.set(server, (doc = buildDocument(server)));
  return doc;
}

function buildDocument(server: string): Json {
  const ops = OPERATIONS.filter((op) => op.api === 'tecV1' && op.id !== 'tecV1.index');
  const paths: Record<string, Json> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    // TEC documents its edits as PUT (PATCH takes the same).
    const method = op.methods.includes('PUT') ? 'put' : op.methods[0]!.toLowerCase();
    item[method] = operationDoc(op);
  }
  return {
    openapi: '3.0.4',
    info: {
      title: 'The Events Calendar REST API',
      version: '1.0.0',
      description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
    },
    tags: [
      { name: 'Events', description: 'These operations are introduced by The Events Calendar.' },
      { name: 'Common', description: 'These operations are introduced by the Common library.' },
    ],
    components: {
      schemas: {
        ...Object.fromEntries(Object.entries(tecV1Schemas('')).map(([k, v]) => [k, openApi30(v)])),
        Error: {
          type: 'object',
          description: 'An error, in WordPress’s envelope',
          properties: { code: { type: 'string' }, message: { type: 'string' }, data: { type: 'object', properties: { status: { type: 'integer' } } } },
        },
      },
      securitySchemes: { BasicAuth: { type: 'http', scheme: 'basic' }, BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    servers: [{ url: server }],
    paths,
  };
}
