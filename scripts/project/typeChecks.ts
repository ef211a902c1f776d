// TypeScript's incremental state (the project's *.tsbuildinfo) goes stale when worker-configuration.d.ts
// changes: TypeScript 7 keeps a file's diagnostics while only a global declaration file it reads
// (one no import names, as wrangler types writes it) changed, so after `npm run generate` tsc would
// still say "Property 'X' does not exist on type 'Env'", and would miss a name taken away. This
// forgets that state whenever the Env file differs from the one seen last (generate runs it, and
// npm test's generate --check before tsc), so the next tsc checks every file again.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The Env type's file, written by wrangler types (npm run generate). */
export const ENV_TYPES = 'worker-configuration.d.ts';

/** Where the hash of the Env file seen last is kept (node_modules/.cache, as other tools do). */
const stampOf = (base: string) => join(base, 'node_modules', '.cache', 'agent-functions', 'env-types');

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Deletes the *.tsbuildinfo files at the top of the project at `base` when worker-configuration.d.ts
 * changed since the last call; returns whether it did.
 * @example forgetStaleTypeChecks(projectRoot()) // true after npm run generate added a secret
 */
export const forgetStaleTypeChecks = (base: string): boolean => {
  const hash = createHash('sha256')
    .update(read(join(base, ENV_TYPES)) ?? '\0')
    .digest('hex');
  if (read(stampOf(base)) === hash) return false;
  for (const file of readdirSync(base)) {
    if (file.endsWith('.tsbuildinfo')) rmSync(join(base, file), { force: true });
  }
  try {
    mkdirSync(dirname(stampOf(base)), { recursive: true });
    writeFileSync(stampOf(base), hash);
  } catch {
    // No cache (a read-only node_modules): the state is forgotten on every run instead.
  }
  return true;
};
