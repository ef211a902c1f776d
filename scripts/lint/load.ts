// Node side of the description linter: the registered form read from the project's Worker (as sync
// reads it) and the golden prompts from test/functions/*.prompts.ts, beside each function's test
// (docs/decisions/0009-golden-prompts-beside-tests.md).
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JsonSchema } from 'agent-functions/worker';
import { z } from 'zod';
import { readManifest, type ServedFunction } from '../project/manifest.ts';
import { PROMPTS_DIR, PROMPTS_SUFFIX } from './golden.ts';
import type { LintFunction, PromptSet } from './types.ts';

/** A served function as the linter reads it. */
export const toLintFunction = (fn: ServedFunction): LintFunction => ({
  name: fn.name,
  description: fn.description,
  parameters: fn.parameters,
  ...(fn.jsonSchema ? { jsonSchema: fn.jsonSchema as JsonSchema } : {}),
  ...(fn.annotations ? { annotations: fn.annotations } : {}),
  ...(fn.effect ? { effect: fn.effect } : {}),
  ...(fn.secrets?.length ? { secrets: [...fn.secrets] } : {}),
  ...(fn.vars?.length ? { vars: [...fn.vars] } : {}),
});

/** The project's functions in their registered form, from its Worker started locally (any secret will do). */
export const servedFunctions = async (root: string): Promise<LintFunction[]> =>
  (await readManifest({ secret: randomBytes(24).toString('base64url'), root })).map(toLintFunction);

const promptsSchema = z.strictObject({
  calls: z.array(
    z.strictObject({
      say: z.string().min(1),
      args: z.record(z.string(), z.unknown()).optional(),
      context: z.string().optional(),
    }),
  ),
  not: z.array(z.string().min(1)).optional(),
});

/** A prompts file that could not be read; the message names it. */
export class PromptsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptsError';
  }
}

/** Every test/functions/<name>.prompts.ts of `root`, by name (Node strips the types: the files are the project's). */
export const loadPrompts = async (root: string): Promise<PromptSet> => {
  const dir = join(root, PROMPTS_DIR);
  if (!existsSync(dir)) return {};
  const files = readdirSync(dir)
    .filter((file) => file.endsWith(PROMPTS_SUFFIX))
    .sort();
  const set: PromptSet = {};
  for (const file of files) {
    let loaded: { default?: unknown };
    try {
      loaded = (await import(`${pathToFileURL(join(dir, file)).href}?t=${Date.now()}`)) as { default?: unknown };
    } catch (error) {
      throw new PromptsError(`${PROMPTS_DIR}/${file} cannot be loaded: ${(error as Error).message.split('\n')[0]}`);
    }
    const parsed = promptsSchema.safeParse(loaded.default);
    if (!parsed.success) {
      throw new PromptsError(
        `${PROMPTS_DIR}/${file}: its default export is not golden prompts: ${z.prettifyError(parsed.error)}`,
      );
    }
    set[file.slice(0, -PROMPTS_SUFFIX.length)] = parsed.data;
  }
  return set;
};
