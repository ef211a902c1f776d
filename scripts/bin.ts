#!/usr/bin/env node
// `agent-functions <command>`: one entry for every command; each is loaded only when run, so
// `agent-functions tail` never pays for the dev loop's imports. The project's npm scripts call it.
import { readFileSync } from 'node:fs';
import { styleText } from 'node:util';
import { COMMANDS, type Command } from './commands.ts';

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
    const { main } = await (COMMANDS[command] as Command).load();
    const code = await main(argv);
    if (typeof code === 'number') process.exitCode = code;
  } catch (error) {
    // One line, never a stack: a wrong flag (parseArgs) or a project that is not there.
    process.stderr.write(`${styleText('red', (error as Error).message, { stream: process.stderr })}\n`);
    process.exitCode = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 2 : 1;
  }
}
