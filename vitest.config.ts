import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { generate } from './scripts/generate.ts';

// The Worker imports the registry generated from functions/; make it current before any test.
generate();

export default defineConfig({
  test: {
    // Function logs are JSON lines on stdout; show them only for tests that fail.
    silent: 'passed-only',
    // A time budget, not an assertion: the first test of a file also pays for starting its workerd
    // isolate, which on a loaded 2-core machine can take longer than vitest's default 5 s.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        // Worker code runs inside workerd, as in production.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                FUNCTIONS_SECRET: 'test-functions-secret',
                PLATFORM_SIGNING_SECRET: 'test-signing-secret',
                // The passphrase of the MCP consent page (test/worker/mcp/oauth.test.ts).
                MCP_OWNER_SECRET: 'test-owner-secret',
              },
            },
          }),
        ],
        test: { name: 'worker', include: ['test/worker/**/*.test.ts'] },
      },
      {
        // Sync, scaffolding, emulator and benchmarks run on Node.
        test: { name: 'node', include: ['test/node/**/*.test.ts'], environment: 'node' },
      },
    ],
  },
});
