import { defineConfig } from 'vitest/config';

// The benchmark harness's own tests (statistics, tables, the Workers it measures).
export default defineConfig({
  test: {
    name: 'bench',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    isolate: false,
    maxWorkers: '100%',
  },
});
