// The project's own wrangler, run as a child of this Node (never a global one, never through npx).
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const require = createRequire(import.meta.url);
const bin = join(dirname(require.resolve('wrangler/package.json')), 'bin', 'wrangler.js');

/**
 * The project's wrangler as a library (createTestHarness, unstable_readConfig). Loaded with
 * `require`, not `import()`: its 15 MB cli.js is CommonJS in a package without a "type", and an
 * `import()` first parses it whole to detect its module format (about 0.2 s of CPU per command).
 * @example const { createTestHarness } = loadWrangler()
 */
export const loadWrangler = (): typeof import('wrangler') => require('wrangler') as typeof import('wrangler');

/**
 * `root`'s wrangler.toml as wrangler reads it, for environment `env` (its top level without one).
 * @example readWranglerConfig(root, 'staging').vars
 */
export const readWranglerConfig = (root: string, env: string | undefined) =>
  loadWrangler().unstable_readConfig(
    { config: join(root, 'wrangler.toml'), ...(env ? { env } : {}) },
    { hideWarnings: true },
  );

/**
 * Starts `wrangler <args>`; the caller reads its streams, or with `inherit` wrangler talks to the
 * terminal itself (its progress, a login prompt).
 */
export const spawnWrangler = (
  args: readonly string[],
  cwd?: string,
  stdio: 'pipe' | 'inherit' = 'pipe',
): ChildProcess =>
  // No telemetry, and no banner about it (docs/local-development.md).
  spawn(process.execPath, [bin, ...args], {
    stdio,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    ...(cwd ? { cwd } : {}),
  });

/**
 * Runs `wrangler <args>` to the end, feeding `input` on stdin; resolves with its exit code and output.
 * @example const { code, stdout } = await runWrangler(['secret', 'list', '--format', 'json'])
 */
export const runWrangler = (
  args: readonly string[],
  options: { input?: string; cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawnWrangler(args, options.cwd);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin?.end(options.input ?? '');
  });

/**
 * The wrangler.toml environment a `--env` flag names: undefined for production (the top level,
 * also spelled `--env=`), or throws a one-line error for anything that cannot be an environment name.
 * @example environmentOf('staging') // 'staging'
 */
export const environmentOf = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(value)) {
    throw new Error(`--env must name an environment of wrangler.toml such as staging, not "${value}".`);
  }
  return value;
};

/** wrangler's flags for an environment; production is `--env=`, the top level, named so wrangler does not warn. */
export const envFlags = (env: string | undefined): string[] => (env ? ['--env', env] : ['--env=']);

/**
 * The one line of wrangler's output that says what went wrong (its `✘ [ERROR]` line, colours
 * removed), for a message of ours; else its last line that is not a pointer to its log file.
 * @example wranglerError(stderr) // 'In a non-interactive environment, it's necessary to set a CLOUDFLARE_API_TOKEN ...'
 */
export const wranglerError = (output: string): string => {
  const lines = stripVTControlCharacters(output)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const error = lines.find((line) => /\[ERROR\]/.test(line));
  if (error) return error.replace(/^.*\[ERROR\]\s*/, '');
  return lines.filter((line) => !/Logs were written/.test(line)).at(-1) ?? 'no output';
};
