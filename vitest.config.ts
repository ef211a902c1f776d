import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { projectBindings } from './test/bindings.ts';

// The tests never read .env: it holds npm run sync's settings (a FUNCTIONS_BASE_URL there would
// change how the Worker answers). .dev.vars is still read, as wrangler dev reads it.
process.env.CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV = 'false';

// The project's tests (test/) run inside workerd through the Worker's own entry (worker.ts), with
// the bindings of wrangler.toml. In this repository the same run also takes the framework's,
// the CLI's and the benchmark's own suites (their folders' vitest.config.ts).
export default defineConfig({
  test: {
    // Function logs are JSON lines on stdout; show them only for tests that fail.
    silent: 'passed-only',
    // A time budget, not an assertion: the first test of a file also pays for starting its workerd
    // isolate, which on a loaded 2-core machine can take longer than vitest's default 5 s.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Every core: the projects' files run side by side (vitest's default leaves one core idle).
    maxWorkers: '100%',
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                FUNCTIONS_SECRET: 'test-functions-secret',
                // The local platform double of agent-functions-cli/platform answers here.
                PLATFORM_BASE_URL: 'https://platform.test',
                PLATFORM_API_KEY: 'test-platform-key',
                // What the project's own tests add (test/bindings.ts).
                ...projectBindings,
              },
            },
          }),
        ],
        // One isolate runs many files: each test restores what it changes (the outbound mock).
        test: {
          name: 'project',
          include: ['test/**/*.test.ts'],
          // generated/ rewritten from functions/ and events/ first, so a run of one test file is current.
          globalSetup: ['agent-functions-cli/vitest-setup'],
          isolate: false,
          maxWorkers: '100%',
        },
      },
      'src',
      'scripts',
      'bench',
    ],
  },
});
