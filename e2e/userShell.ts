// The environment of a user's own shell, for commands the e2e tests run as a user would.
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** A user's shell: none of this repository's npm run variables, none of its node_modules on PATH. */
export const userEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|VITEST|INIT_CWD$|NODE_ENV$|TEST$|NODE_OPTIONS$)/i.test(name)) env[name] = value;
  }
  const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && !dir.includes('node_modules'));
  // A machine whose only Node is the one running this test still needs one for npm.
  if (!path.some((dir) => existsSync(join(dir, 'node')))) path.push(dirname(process.execPath));
  env.PATH = path.join(delimiter);
  env.NO_COLOR = '1';
  return env;
};
