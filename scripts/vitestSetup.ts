// vitest's globalSetup for a project's tests (its vitest.config.ts names
// `agent-functions-cli/vitest-setup`): the registries in generated/ are rewritten from functions/
// and events/ before any test file loads, so `npx vitest run --project project
// test/functions/<name>.test.ts` sees a function made a moment ago and never imports a deleted one;
// and a green run reads clean (scripts/local/handledStepErrors.ts).
import type { Write } from 'agent-functions/internal';
import { quiet } from './local/handledStepErrors.ts';
import { generate } from './project/generated.ts';
import { projectRoot } from './project/paths.ts';

/** Rewrites generated/ for the project vitest runs in, and quiets the handled step errors until the run ends. */
export default function setup(): () => void {
  generate(projectRoot());
  const streams = [process.stderr, process.stdout] as unknown as Array<{ write: Write }>;
  const restore = streams.map(quiet);
  return () => {
    for (const undo of restore) undo();
  };
}
