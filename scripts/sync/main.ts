// `agent-functions sync`: the command; the run itself is the registration module's (runSync), which
// `npm run dev` and `agent-functions accounts` use too.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../project/paths.ts';
import { parseSyncArgs } from './args.ts';
import { runSync } from './run.ts';

/** The variables file of an environment: .env for production, .env.NAME for --env NAME (never both). */
export const dotenvOf = (argv: string[], root = projectRoot()): string => {
  let env: string | undefined;
  try {
    env = parseSyncArgs(argv).env;
  } catch {
    // Bad flags are reported by runSync.
  }
  return join(root, env ? `.env.${env}` : '.env');
};

/** `agent-functions sync`: loads the environment's .env file, then syncs. */
export const main = async (argv: string[]): Promise<number> => {
  const dotenv = dotenvOf(argv);
  if (existsSync(dotenv)) process.loadEnvFile(dotenv);
  const { exitCode } = await runSync(argv, { env: process.env, stdout: process.stdout, stderr: process.stderr });
  return exitCode;
};
