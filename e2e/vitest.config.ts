import { defineConfig } from 'vitest/config';

// npm run test:e2e: what boots wrangler, a browser, a real sync, the scaffold, a packed install and
// the MCP conformance suite. Slow by nature, so outside npm test; CI runs both.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**'],
    environment: 'node',
    silent: 'passed-only',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each file starts servers on its own ports; two at once on two cores only slows both.
    fileParallelism: false,
  },
});
