// Which declared settings the local Worker lacks under `npm run dev`: those neither wrangler.toml's
// [vars], nor .dev.vars (a value that is not blank), nor dev itself supply. Shared by
// `npm run secrets -- check --local` and dev's own check at start and on each reload.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseEnv } from 'node:util';
import { missingLines, type Setting } from './settings.ts';

export interface LocalSources {
  /** The project, to name the file relative to it. */
  root: string;
  /** The .dev.vars file to read. */
  file: string;
  /** The names of wrangler.toml's [vars]. */
  tomlVars: readonly string[];
  /** The names npm run dev sets itself. */
  supplied: readonly string[];
}

/** The names .dev.vars sets to something other than blanks. */
export const devVarsNames = (file: string): string[] => {
  const local = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  return Object.keys(local).filter((name) => local[name]?.trim());
};

/**
 * One line per setting the local Worker lacks, saying where to add it.
 * @example missingLocally(settings, { root, file: join(root, '.dev.vars'), tomlVars: [], supplied: [] }) // ['Missing DISCOUNT_API_KEY (secret of discount): add it to .dev.vars (see .dev.vars.example).']
 */
export const missingLocally = (settings: readonly Setting[], sources: LocalSources): string[] => {
  const available = new Set([...sources.tomlVars, ...devVarsNames(sources.file), ...sources.supplied]);
  return missingLines(
    settings,
    available,
    () => `add it to ${relative(sources.root, sources.file)} (see .dev.vars.example).`,
  );
};
