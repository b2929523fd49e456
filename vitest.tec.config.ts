import { defineConfig } from 'vitest/config';

// `npm run test:tec`: comparisons with a live TEC (WordPress + The Events Calendar on
// 127.0.0.1:8080, or TEC_URL), which `npm test` does not need. Our side runs as in the
// integration tests, on DynamoDB Local; the live site is started by ../shared/tec-live/setup.sh.
export default defineConfig({
  test: {
    name: 'tec',
    include: ['test/tec/**/*.test.ts'],
    pool: 'forks',
    // One file at a time: the live site's PHP shares the machine's two cores, and two files at once
    // took longer (718 s against 517 s) and timed out.
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['test/setup/env.ts'],
    globalSetup: ['test/setup/dynamodb.ts'],
  },
});
