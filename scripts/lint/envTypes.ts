// Whether the Env type (worker-configuration.d.ts, from `npm run generate`) has every secret and
// var the functions declare: a name it lacks makes tsc say "Property 'X' does not exist on type
// 'Env'", which does not say how to fix it; this line does (npm test runs it in lint:functions).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAMEWORK_ENV_NAMES } from 'agent-functions/internal';
import { ENV_TYPES } from '../project/typeChecks.ts';

/** What the check reads of each function: its name and declared settings. */
export interface DeclaringFunction {
  name: string;
  secrets?: readonly string[] | undefined;
  vars?: readonly string[] | undefined;
}

/**
 * One line per declared setting the Env type of the project at `root` lacks (none without the file).
 * @example envTypeGaps(root, [{ name: 'issue_discount', secrets: ['DISCOUNT_API_KEY'] }])
 */
export const envTypeGaps = (root: string, functions: readonly DeclaringFunction[]): string[] => {
  const file = join(root, ENV_TYPES);
  if (!existsSync(file)) return [];
  const types = readFileSync(file, 'utf8');
  // The framework's own (FUNCTIONS_SECRET, PLATFORM_API_KEY, ...) are in its Env type already.
  const framework = new Set<string>(FRAMEWORK_ENV_NAMES);
  const has = (name: string) => framework.has(name) || new RegExp(`(^|[\\s{;])${name}\\??\\s*:`, 'm').test(types);
  return functions.flatMap((fn) => {
    const declared = [
      ...(fn.secrets ?? []).map((name) => ({ name, where: `${name}= to .dev.vars.example (a secret)` })),
      ...(fn.vars ?? []).map((name) => ({
        name,
        where: `${name} to wrangler.toml [vars] (or ${name}= to .dev.vars.example)`,
      })),
    ];
    return declared
      .filter(({ name }) => !has(name))
      .map(
        ({ name, where }) =>
          `functions/${fn.name}.ts declares ${name}, which the Env type lacks (${ENV_TYPES}): add ${where}, then run npm run generate.`,
      );
  });
};
