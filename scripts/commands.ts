// Every command of `agent-functions`, its one-line summary and its entry: bin.ts dispatches from
// this table, and the lists of commands elsewhere (the READMEs, init's scripts) are tested against it
// (scripts/test/commands.test.ts), so adding a command starts here.

/** What a command's entry exports: it takes the arguments after the command's name and returns the exit code. */
export type Main = (argv: string[]) => Promise<number | undefined> | number | undefined;

/** A command: its summary in `agent-functions --help`, and its entry, loaded only when it runs. */
export interface Command {
  summary: string;
  load: () => Promise<{ main: Main }>;
}

/** Every command by name, in the order `--help` lists them. */
export const COMMANDS: Record<string, Command> = {
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
    load: () => import('./accounts/main.ts'),
  },
  secrets: {
    summary: 'list, check or put the secrets and vars the functions need',
    load: () => import('./secrets/main.ts'),
  },
  tail: { summary: "follow the deployed Worker's logs, one line per call", load: () => import('./tail/main.ts') },
  stats: {
    summary: 'calls, outcomes, durations per account and function (npm run dev, or --env NAME)',
    load: () => import('./stats/main.ts'),
  },
  openapi: { summary: 'write the OpenAPI 3.1 document of the functions', load: () => import('./openapi/main.ts') },
  generate: {
    summary: 'write the registries of functions/ and events/ (and --types: Env)',
    load: () => import('./generate/main.ts'),
  },
  platform: {
    summary: 'start the local platform, or play the agent against it',
    load: () => import('./platform/main.ts'),
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
