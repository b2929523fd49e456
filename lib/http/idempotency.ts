// Retry-safe creates: `Idempotency-Key` on the operations the table marks `idempotent`, kept by
// Powertools' Idempotency utility in the table itself. A repeat by the same caller with the same
// key and request within a day gets the first answer (status, headers, body) and writes nothing;
// the same key with another request is 422; a repeat while the first still runs is 409. Only a
// success is kept: a failed create may be sent again with its key and runs again. A create whose
// outcome was unknown (503) runs again too, and finds the record its first try stored, if it did:
// every try of a key takes the same id (lib/store/create-ids.ts).
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { IdempotencyAlreadyInProgressError, IdempotencyConfig, IdempotencyValidationError, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '#lib/runtime/config.js';
import { db } from '#lib/store/db.js';
import { ApiError } from '#lib/contract/errors.js';
import { header } from '#lib/runtime/headers.js';
import type { Operation } from '#lib/contract/operations.js';
import { TTL_ATTRIBUTE } from '#lib/store/table.js';
import { IDEMPOTENCY_PARTITION, IDEMPOTENCY_SECONDS } from '#lib/store/create-ids.js';

export type Result = APIGatewayProxyStructuredResultV2;

/** Visible ASCII, as most APIs that take the header accept (RFC draft-ietf-httpapi-idempotency-key-header). */
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

const REPLAYED_HEADER = 'idempotent-replayed';

const invalidKey = () => new ApiError(400, 'rest_invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
const keyReused = () => new ApiError(422, 'rest_idempotency_key_reused', 'This Idempotency-Key was already used for another request; send a new key for a new request.');
const stillRunning = () => new ApiError(409, 'rest_idempotency_in_progress', 'A request with this Idempotency-Key is still running; wait for its answer or try again shortly.');

/** A failed answer: handed back to the caller, not kept (Powertools keeps only what returns). */
class NotKept extends Error {
  constructor(readonly result: Result) {
    super('not kept');
  }
}

let store: { table: string; endpoint?: string; persistence: DynamoDBPersistenceLayer } | undefined;
function persistence(): DynamoDBPersistenceLayer {
  const table = config().tableName;
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!store || store.table !== table || store.endpoint !== endpoint) {
    store = {
      table,
      endpoint,
      persistence: new DynamoDBPersistenceLayer({
        tableName: table,
        keyAttr: 'pk',
        sortKeyAttr: 'sk',
        staticPkValue: IDEMPOTENCY_PARTITION,
        expiryAttr: TTL_ATTRIBUTE,
        // The shared client: the same credentials, capacity tally and (locally) grant checks. The
        // document client sends the utility's own item commands unchanged.
        awsSdkV3Client: db() as unknown as DynamoDBClient,
      }),
    };
  }
  return store.persistence;
}

interface Payload {
  op: string;
  caller: string;
  key: string;
  request: { lang: string; path: string; query: string; body: string };
}

/**
 * Runs a create once per (caller, key): `run` is the operation's own work, from decoded request to
 * encoded answer; it throws for errors, which are then not kept.
 */
export async function idempotent(
  op: Operation,
  caller: string | undefined,
  event: APIGatewayProxyEventV2,
  context: Context,
  run: (createKey?: string) => Promise<Result>,
): Promise<Result> {
  const key = header(event, 'idempotency-key');
  if (!op.idempotent || key === undefined || caller === undefined) return run();
  if (!KEY_SHAPE.test(key)) throw invalidKey();
  const idempotencyConfig = new IdempotencyConfig({
    eventKeyJmesPath: '[op, caller, key]',
    payloadValidationJmesPath: 'request',
    expiresAfterSeconds: IDEMPOTENCY_SECONDS,
    throwOnNoIdempotencyKey: true,
    // A repeat says that it is one.
    responseHook: (response) => {
      const r = response as Result;
      return { ...r, headers: { ...(r.headers ?? {}), [REPLAYED_HEADER]: 'true' } };
    },
  });
  // An unfinished first request (a crashed container) holds its key only until its timeout.
  idempotencyConfig.registerLambdaContext(context);
  const body = event.body ?? '';
  const payload: Payload = {
    op: op.id,
    caller,
    key,
    request: {
      lang: event.pathParameters?.lang ?? '',
      path: event.rawPath ?? '',
      query: event.rawQueryString ?? '',
      body: event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body,
    },
  };
  const once = makeIdempotent(
    async (_payload: Payload): Promise<Result> => {
      // Every try of the key creates the same record (lib/store/create-ids.ts).
      const result = await run(JSON.stringify([op.id, caller, key]));
      if ((result.statusCode ?? 200) >= 300) throw new NotKept(result);
      return result;
    },
    { persistenceStore: persistence(), config: idempotencyConfig },
  );
  try {
    return await once(payload);
  } catch (err) {
    if (err instanceof NotKept) return err.result;
    if (err instanceof IdempotencyAlreadyInProgressError) throw stillRunning();
    if (err instanceof IdempotencyValidationError) throw keyReused();
    throw err;
  }
}
