import { defineConfig } from 'vitest/config';

// Two projects: `unit` (pure logic, no DynamoDB: `npm run test:unit` runs it alone in seconds) and
// `integration` (store, handlers, stream, local gateway, browser and CDK tests, against one
// DynamoDB Local for the whole run, or DYNAMODB_ENDPOINT). `npm test` runs both.
const common = {
  pool: 'forks' as const,
  testTimeout: 20_000,
  // Seeding hooks write tens of records, which a loaded 2-core machine serves slowly.
  hookTimeout: 180_000,
  // Two files at a time on a 2-core machine: many wait on timers, holds and DynamoDB Local rather
  // than on the CPU, and one at a time took most of CI's 30 minutes; three at a time took longer
  // than two (each file ran two to three times slower). (Projects that run together must share it.)
  maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
  // Every worker: DynamoDB endpoint, region, development auth and site settings, before any import.
  setupFiles: ['test/setup/env.ts'],
};

export default defineConfig({
  test: {
    projects: [
      { test: { ...common, name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        test: {
          ...common,
          name: 'integration',
          include: ['test/{integration,e2e,infra}/**/*.test.ts'],
          // A test that runs the stream consumer waits for every trigger of every change it makes,
          // which a loaded 2-core machine takes tens of seconds for.
          testTimeout: 60_000,
          // One DynamoDB Local for the project; its endpoint is `provide`d.
          globalSetup: ['test/setup/dynamodb.ts'],
        },
      },
    ],
  },
});
