// Global setup: one in-memory DynamoDB Local for the whole test run (and a pool of them for the
// tables with a stream, ./stream-instances.ts), or the DynamoDB named by DYNAMODB_ENDPOINT. It is
// started without waiting for it: files that need a table wait in `useFreshTable`
// (test/support/table.ts), so unit-only runs do not pay for its start-up. It has
// DYNAMODB_START_TIMEOUT_MS (default 90 s) to answer; the error past it names that setting.
import type { TestProject } from 'vitest/node';
import { ensureDevKeys } from '#lib/local/dev-auth.js';
import { JavaMissingError, startDynamoLocal } from '#lib/local/dynamo.js';
import { servePool, StreamInstances } from './stream-instances.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The DynamoDB endpoint for the tests; '' when none could be started (see dynamodbError). */
    dynamodbEndpoint: string;
    /** Why there is no endpoint, e.g. the one-line "Java 17+ is required" message. */
    dynamodbError: string;
    /** Where files whose table has a stream lease a DynamoDB Local (./stream-instances.ts); '' to use dynamodbEndpoint. */
    dynamodbStreamPool: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // Created once here, so that parallel workers never race to write the key file.
  await ensureDevKeys('.local');

  const given = process.env.DYNAMODB_ENDPOINT;
  if (given) {
    project.provide('dynamodbEndpoint', given);
    project.provide('dynamodbError', '');
    project.provide('dynamodbStreamPool', '');
    return async () => {};
  }
  try {
    const dynamo = await startDynamoLocal({ wait: false });
    let done = false;
    // Surface a failed start once, here; table helpers report it too.
    dynamo.ready().catch((err: Error) => {
      if (!done) console.error(`[dynamodb] ${err.message}`);
    });
    project.provide('dynamodbEndpoint', dynamo.endpoint);
    project.provide('dynamodbError', '');
    const pool = await servePool(new StreamInstances());
    project.provide('dynamodbStreamPool', pool.url);
    return async () => {
      done = true;
      await Promise.all([dynamo.stop(), pool.close()]);
    };
  } catch (err) {
    if (!(err instanceof JavaMissingError)) throw err;
    project.provide('dynamodbEndpoint', '');
    project.provide('dynamodbError', err.message);
    project.provide('dynamodbStreamPool', '');
    return async () => {};
  }
}
