import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

// npm run test:e2e: what boots wrangler, a browser, a real sync, the scaffold, a packed install and
// the MCP conformance suite, and the framework's fuzz suite over the project's own functions. Slow by
// nature, so outside npm test; CI runs both.
export default defineConfig({
  test: {
    silent: 'passed-only',
    projects: [
      {
        test: {
          name: 'e2e',
          root: root('e2e'),
          include: ['**/*.test.ts'],
          exclude: ['node_modules/**'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 240_000,
          // Each file starts servers and builds of its own; two at once on two cores only slow both.
          fileParallelism: false,
        },
      },
      {
        // The framework's fuzz suite, whose "shipped" functions are now the project's functions/,
        // called through the project's own entry (worker.ts).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: root('wrangler.toml') },
            miniflare: {
              bindings: { FUNCTIONS_SECRET: 'test-functions-secret', PLATFORM_SIGNING_SECRET: 'test-signing-secret' },
            },
          }),
        ],
        resolve: { alias: { '#shipped-functions': root('generated/functions.ts') } },
        test: {
          name: 'e2e-project-fuzz',
          root: root('.'),
          include: ['src/test/security/fuzz.test.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
