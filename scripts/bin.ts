#!/usr/bin/env node
// `agent-functions <command>`: one entry for every command; each is loaded only when run, so
// `agent-functions tail` never pays for the dev loop's imports. The project's npm scripts call it.
import { readFileSync } from 'node:fs';
import { styleText } from 'node:util';

type Main = (argv: string[]) => Promise<number | undefined> | number | undefined;

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ main: Main }> }> = {
  init: {
    summary: 'create a new project in <dir> (--no-examples for a bare one)',
    load: () => import('./init/main.ts'),
  },
  dev: {
    summary: 'serve every function locally with the local platform and console',
    load: () => import('./dev/main.ts'),
  },
  new: {
    summary: 'scaffold functions/<name>.ts and its test (--event <type>: events/<type>.ts)',
    load: () => import('./new/main.ts'),
  },
  deploy: {
    summary: "create the environment's missing queues, then wrangler deploy (--env NAME)",
    load: () => import('./deploy/main.ts'),
  },
  sync: {
    summary: 'register or update every function (and the events webhook) on the platform',
    load: () => import('./sync/main.ts'),
  },
  accounts: {
    summary: 'add, list, remove or rotate the platform accounts (client keys in the account store)',
    load: () => import('./accounts/cli.ts'),
  },
  secrets: {
    summary: 'list, check or put the secrets and vars the functions need',
    load: () => import('./secrets/cli.ts'),
  },
  tail: { summary: "follow the deployed Worker's logs, one line per call", load: () => import('./tail/cli.ts') },
  stats: {
    summary: 'calls, outcomes, durations per account and function (npm run dev, or --env NAME)',
    load: () => import('./stats/cli.ts'),
  },
  openapi: { summary: 'write the OpenAPI 3.1 document of the functions', load: () => import('./openapi.ts') },
  generate: {
    summary: 'write the registries of functions/ and events/ (and --types: Env)',
    load: () => import('./generate.ts'),
  },
  platform: {
    summary: 'start the local platform, or play the agent against it',
    load: () => import('./platform/cli.ts'),
  },
  mcp: {
    summary: "list or revoke the OAuth clients of the deployed Worker's /mcp",
    load: () => import('./mcp/main.ts'),
  },
  lint: { summary: "the project's checks beside biome (workflows, functions)", load: () => import('./lint/main.ts') },
  eval: {
    summary: 'ask a real model the golden prompts k times and report pass^k per function',
    load: () => import('./eval/main.ts'),
  },
};

/** This package's version, from its package.json (beside bin.ts, or one level up from dist/). */
const ownVersion = (): string => {
  for (const path of ['./package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'agent-functions-cli' && pkg.version) return pkg.version;
    } catch {
      // Not this one.
    }
  }
  return 'unknown';
};

const HELP = `Usage: agent-functions <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(10)}${summary}`)
  .join('\n')}

Run agent-functions <command> --help for a command's options.
`;

const [command, ...argv] = process.argv.slice(2);
if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(HELP);
  process.exitCode = command === undefined ? 2 : 0;
} else if (command === '--version' || command === '-v') {
  process.stdout.write(`${ownVersion()}\n`);
} else if (!Object.hasOwn(COMMANDS, command)) {
  process.stderr.write(`${styleText('red', `Unknown command "${command}".`, { stream: process.stderr })}\n\n${HELP}`);
  process.exitCode = 2;
} else {
  try {
    const { main } = await (COMMANDS[command] as { load: () => Promise<{ main: Main }> }).load();
    const code = await main(argv);
    if (typeof code === 'number') process.exitCode = code;
  } catch (error) {
    // One line, never a stack: a wrong flag (parseArgs) or a project that is not there.
    process.stderr.write(`${styleText('red', (error as Error).message, { stream: process.stderr })}\n`);
    process.exitCode = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 2 : 1;
  }
}
