// What dev says of the settings the served functions declare (define.ts's `secrets` and `vars`)
// that the local Worker lacks: the same lines as `npm run secrets -- check --local`, at start and
// whenever a reload changes them, so a missing key is named before its call answers 503.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServedFunction } from '../project/manifest.ts';
import { missingLocally } from '../secrets/local.ts';
import { settingsOf } from '../secrets/settings.ts';
import { readWranglerConfig } from '../wrangler.ts';

export interface SettingsCheckOptions {
  root: string;
  /** The names dev sets on the local Worker itself (its --vars). */
  supplied: readonly string[];
  warn: (text: string) => void;
  say: (text: string) => void;
}

/**
 * A check to run with each manifest dev syncs: it says each newly missing setting, and when none is.
 * @example const check = settingsCheck({ root, supplied: Object.keys(settings.vars), warn, say }); check(served);
 */
export const settingsCheck = (options: SettingsCheckOptions): ((served: readonly ServedFunction[]) => void) => {
  const { root, supplied, warn, say } = options;
  const tomlVars = existsSync(join(root, 'wrangler.toml'))
    ? Object.keys(readWranglerConfig(root, undefined).vars ?? {})
    : [];
  let before = new Set<string>();
  return (served) => {
    const lines = missingLocally(settingsOf(served), { root, file: join(root, '.dev.vars'), tomlVars, supplied });
    for (const line of lines) {
      if (!before.has(line)) warn(`${line} Until then its calls answer 503 not_configured.`);
    }
    if (before.size > 0 && lines.length === 0) say('every setting the functions declare is set.');
    before = new Set(lines);
  };
};
