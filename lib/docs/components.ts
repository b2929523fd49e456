// The components of the OpenAPI document: the schemas of records, lists, errors, WordPress's
// shapes and inputs, the responses and headers many operations share, and the security schemes.
import { presentedExamples } from './record-samples.js';
import { RECORDS, recordSchema, type SchemaDrift } from './record-schemas.js';
import { changeListSchema, errorSchema, namespaceIndexSchema, postList, restIndexSchema, termList } from './fixed-schemas.js';
import { wpSchemas } from './wp-schemas.js';
import { tecV1Schemas } from './tec-v1.js';
import { SHARED_RESPONSES } from './shared-responses.js';
import { inputComponents } from './request-bodies.js';
import { SECURITY_SCHEMES } from './security.js';
import type { Json } from './json-schema.js';

// --- components ----------------------------------------------------------------------------------

let cache: { value: Json; drift: SchemaDrift[] } | undefined;

/** The components, built on first use and kept for the process. */
export const components = (): { value: Json; drift: SchemaDrift[] } => (cache ??= buildComponents());

function buildComponents(): { value: Json; drift: SchemaDrift[] } {
  const examples = presentedExamples();
  const drift: SchemaDrift[] = [];
  const schemas: Json = {};
  for (const name of Object.keys(RECORDS)) {
    const built = recordSchema(name, examples[name] ?? []);
    schemas[name] = built.schema;
    drift.push(built.drift);
  }
  Object.assign(schemas, {
    EventList: postList('events', 'Event'),
    VenueList: postList('venues', 'Venue'),
    OrganizerList: postList('organizers', 'Organizer'),
    CategoryList: termList('categories'),
    TagList: termList('tags'),
    ChangeList: changeListSchema,
    NamespaceIndex: namespaceIndexSchema,
    RestIndex: restIndexSchema,
    Error: errorSchema,
    ...wpSchemas(),
    ...tecV1Schemas('TecV1'),
  });
  const inputs = inputComponents();
  Object.assign(schemas, inputs.schemas);
  return {
    value: {
      schemas,
      responses: SHARED_RESPONSES,
      requestBodies: inputs.requestBodies,
      headers: {
        'X-TEC-Total': { description: 'The number of matching records', schema: { type: 'integer', minimum: 0 } },
        'X-TEC-TotalPages': { description: 'The number of pages', schema: { type: 'integer', minimum: 0 } },
        ETag: { description: "The answer's tag, for If-None-Match; a record's tag also names its revision, for If-Match", schema: { type: 'string' } },
        'Cache-Control': { description: 'public, max-age=N, stale-while-revalidate=M for anonymous reads; private, no-store otherwise', schema: { type: 'string' } },
      },
      securitySchemes: SECURITY_SCHEMES,
    },
    drift,
  };
}

/** Where the record schemas' descriptions and the presenters disagree (for the tests). */
export function schemaDrift(): SchemaDrift[] {
  return components().drift;
}
