import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // One DynamoDB Local for the whole run (or DYNAMODB_ENDPOINT); its endpoint is `provide`d.
    globalSetup: ['test/setup/dynamodb.ts'],
    // Every worker: DynamoDB endpoint, region, development auth and site settings, before any import.
    setupFiles: ['test/setup/env.ts'],
  },
});
