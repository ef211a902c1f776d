// `npm run sync`: reads .env at the project's root (variables already set win), runs, exits.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './manifest.ts';
import { runSync } from './run.ts';

const dotenv = join(PROJECT_ROOT, '.env');
if (existsSync(dotenv)) process.loadEnvFile(dotenv);

const { exitCode } = await runSync(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
process.exitCode = exitCode;
