// Functions in their registered form, as the Worker's manifest derives them, for the linter's tests.
import type { Effect, FunctionDefinition } from 'agent-functions';
import { describeFunction } from 'agent-functions/worker';
import { z } from 'zod';
import { toLintFunction } from '../../descriptions/load.ts';
import type { LintFunction } from '../../descriptions/types.ts';
import type { ServedFunction } from '../../project/manifest.ts';
import { PROJECT_ROOT } from '../repo.ts';

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

let examples: Promise<LintFunction[]> | undefined;

/** The example project's functions, read once from its Worker (started locally, as sync reads them). */
export const exampleFunctions = (): Promise<LintFunction[]> => {
  examples ??= import('../../descriptions/load.ts').then(({ servedFunctions }) => servedFunctions(PROJECT_ROOT));
  return examples;
};
