import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// The framework's own tests, inside workerd, against a Worker of test functions (test/worker.ts).
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './test/wrangler.toml' },
      miniflare: {
        bindings: {
          FUNCTIONS_SECRET: 'test-functions-secret',
          // The account store's encryption secret (test/accounts/).
          ACCOUNTS_SECRET: 'test-accounts-secret-5d0c8e2a9f71b3',
          PLATFORM_SIGNING_SECRET: 'test-signing-secret',
          // The first account's address and key, which deferred work's follow-ups read (a test
          // Worker's own platform option decides where they really go).
          PLATFORM_BASE_URL: 'https://platform.test',
          PLATFORM_API_KEY: 'test-platform-key',
          // A second account's key (test/accounts/), which its deferred work reads from the Worker's env.
          CLIENT_B_KEY: 'key-of-b',
          // The passphrase of the MCP consent page (test/mcp/oauth.test.ts).
          MCP_OWNER_SECRET: 'owner-7Qv2Lx9Pz4Rk8Wn3Jt6Yb1Ms',
          // The static MCP token is opt-in; the SDK client tests use it (test/mcp/trust.test.ts checks it is off otherwise).
          MCP_STATIC_TOKEN: 'on',
          // Deferred calls of test/conversations/faults.test.ts: 100 here (every fault and their
          // combinations, call 0 having all four), 1,000 in npm run test:faults.
          FAULT_CALLS: process.env.FAULT_CALLS ?? '100',
        },
      },
    }),
  ],
  resolve: {
    // The functions the test Worker serves, which the fuzz suite calls through the real entry.
    alias: { '#shipped-functions': fileURLToPath(new URL('./test/fixtures/functions/index.ts', import.meta.url)) },
  },
  test: {
    name: 'framework',
    // One isolate runs many files: the suites restore what they change, and start-up per file cost more than the tests.
    isolate: false,
    maxWorkers: '100%',
    include: ['test/**/*.test.ts'],
    silent: 'passed-only',
    // workerd logs the crashes fault tests inject on purpose; this drops those, and only those.
    globalSetup: ['./test/quietFaults.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
