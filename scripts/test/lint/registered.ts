// Functions in their registered form, as the Worker's manifest derives them, for the linter's tests.
import { readFileSync } from 'node:fs';
import type { Effect, FunctionDefinition } from 'agent-functions';
import { describeFunction } from 'agent-functions/worker';
import { z } from 'zod';
import { toLintFunction } from '../../lint/load.ts';
import type { LintFunction, PromptSet } from '../../lint/types.ts';
import type { ServedFunction } from '../../project/manifest.ts';

type Definition = Pick<FunctionDefinition, 'description' | 'parameters' | 'annotations' | 'effect'>;

/**
 * What the Worker's manifest (the JSON of GET /functions) says of `definition` under `name`, as the
 * linter reads it; `effect` is declared on the definition.
 */
export const registered = (name: string, definition: Definition, effect?: Effect): LintFunction => {
  const manifest = describeFunction(name, { ...definition, ...(effect ? { effect } : {}), handler: () => null });
  return toLintFunction(JSON.parse(JSON.stringify(manifest)) as ServedFunction);
};

/** A function every rule is content with. */
export const goodDefinition = (): Definition => ({
  description:
    "Looks up the status of the customer's order: whether it is being prepared, on its way or delivered. Call it when the customer asks where their order is. Not for complaints: use pass_to_team.",
  parameters: z.object({
    orderNumber: z.string().max(32).describe('The order number from the confirmation email, like "10452"'),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
});

/**
 * The linter's own fixture project: nine functions in their registered form (as GET /functions
 * answers them; the examples of 0.2.0) and their golden prompts. The linter's tests read this,
 * never the project's functions/, so a project's own functions cannot turn them red.
 */
export const fixtureProject = (): { functions: LintFunction[]; prompts: PromptSet } =>
  JSON.parse(readFileSync(new URL('./fixtures/project.json', import.meta.url), 'utf8'));
