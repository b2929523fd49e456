import { defineConfig } from 'vitest/config';

// `npm run test:tec`: comparisons with a live TEC (WordPress + The Events Calendar on
// 127.0.0.1:8080, or TEC_URL), which `npm test` does not need. Our side runs as in the
// integration tests, on DynamoDB Local; the live site is started by ../shared/tec-live/setup.sh.
export default defineConfig({
  test: {
    name: 'tec',
    include: ['test/tec/**/*.test.ts'],
    pool: 'forks',
    // Two files at a time: most of their time is spent waiting on the live site and the imports.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['test/setup/env.ts'],
    globalSetup: ['test/setup/dynamodb.ts'],
  },
});
