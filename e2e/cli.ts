// The CLI as a user runs it: the installed `agent-functions` command (built), in the project, with
// the project's node_modules/.bin first on PATH, as under `npm run`.
import { join } from 'node:path';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';

/** The `agent-functions` command of the project (its node_modules/.bin link). */
export const AGENT_FUNCTIONS: string = join(PROJECT_ROOT, 'node_modules', '.bin', 'agent-functions');

/** The environment of a command started by `npm run` in `root`: its node_modules/.bin first on PATH. */
export const npmRunEnv = (root: string = PROJECT_ROOT, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`,
  ...extra,
});

/** `[file, args]` for spawning `agent-functions <args>` on this Node. */
export const agentFunctions = (...args: string[]): [string, string[]] => [process.execPath, [AGENT_FUNCTIONS, ...args]];
