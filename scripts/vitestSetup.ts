// vitest's globalSetup for a project's tests (its vitest.config.ts names
// `agent-functions-cli/vitest-setup`): the registries in generated/ are rewritten from functions/
// and events/ before any test file loads, so `npx vitest run --project project
// test/functions/<name>.test.ts` sees a function made a moment ago and never imports a deleted one.
import { generate } from './project/generated.ts';
import { projectRoot } from './project/paths.ts';

/** Rewrites generated/ for the project vitest runs in. */
export default function setup(): void {
  generate(projectRoot());
}
