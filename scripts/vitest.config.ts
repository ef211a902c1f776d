import { defineConfig } from 'vitest/config';

// The CLI's tests, on Node: sync against the local platform over real HTTP, the emulator, dev's
// parts, scaffolding, secrets and tail.
export default defineConfig({
  test: {
    name: 'cli',
    // One worker runs many files: the suites restore what they change, and start-up per file cost more than the tests.
    isolate: false,
    maxWorkers: '100%',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    silent: 'passed-only',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
