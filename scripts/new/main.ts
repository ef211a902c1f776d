// `npm run new -- <name>`: scaffolds functions/<name>.ts and its workerd test from a template that
// works, except that `npm test` fails on its placeholder description until the author writes one,
// and prints what to do next. `--event <type>` does the same for
// events/<type>.ts.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { styleText } from 'node:util';
import { EVENT_NAME, FUNCTION_NAME } from 'agent-functions/platform';
import { generate } from '../project/generated.ts';
import { projectRoot } from '../project/paths.ts';
import { eventTemplate, eventTestTemplate, functionTemplate, testTemplate } from '../project/templates.ts';

// The generated registry imports each function under its own name (agent-functions generate), so a name
// must be a usable identifier there and must not clash with the registry's export.
const RESERVED = new Set(
  (
    'arguments await break case catch class const continue debugger default delete do else enum eval export ' +
    'extends false finally for function functions if implements import in instanceof interface let new null ' +
    'package private protected public return static super switch this throw true try typeof var void while with yield'
  ).split(' '),
);

/** A new function's file and its test's, relative to the project root. */
const functionFiles = (name: string): [string, string] => [
  join('functions', `${name}.ts`),
  join('test', 'functions', `${name}.test.ts`),
];

/** A new event handler's file and its test's, relative to the project root. */
const eventFiles = (type: string): [string, string] => [
  join('events', `${type}.ts`),
  join('test', 'events', `${type}.test.ts`),
];

const taken = (base: string, paths: string[]): string | undefined => {
  for (const path of paths) {
    if (existsSync(join(base, path))) return `${path} already exists: choose another name, or edit that file.`;
  }
  return undefined;
};

/** Why `name` cannot be a new function in `base`, or undefined when it can. */
export const refusal = (name: string, base: string = projectRoot()): string | undefined => {
  if (!FUNCTION_NAME.test(name)) {
    const hint = name
      .trim()
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .replace(/^[^a-z]+|_+$/g, '')
      .slice(0, 64);
    return `"${name}" is not a valid function name: use snake_case, starting with a letter, at most 64 characters of a-z, 0-9 and _ (${FUNCTION_NAME}).${hint && FUNCTION_NAME.test(hint) ? ` Try "${hint}".` : ''}`;
  }
  if (RESERVED.has(name)) return `"${name}" is a reserved word in JavaScript or in this project; choose another name.`;
  return taken(base, functionFiles(name));
};

/** Why `type` cannot be a new event handler in `base`, or undefined when it can. */
export const eventRefusal = (type: string, base: string = projectRoot()): string | undefined => {
  if (!EVENT_NAME.test(type)) {
    return `"${type}" is not an event type name: use the platform's name, lowercase words joined by dots, like appointment.booked or message.received (${EVENT_NAME}).`;
  }
  return taken(base, eventFiles(type));
};

const write = (base: string, files: Array<[string, string]>): string[] => {
  for (const [path] of files) mkdirSync(join(base, path, '..'), { recursive: true });
  // 'wx': never overwrite, even if the file appeared since the check.
  for (const [path, text] of files) writeFileSync(join(base, path), text, { flag: 'wx' });
  return files.map(([path]) => path);
};

/**
 * Writes the event handler and its test under `base`; throws with the refusal when the type cannot be used.
 * @example scaffoldEvent('appointment.booked') // ['events/appointment.booked.ts', 'test/events/appointment.booked.test.ts']
 */
export const scaffoldEvent = (type: string, base: string = projectRoot()): string[] => {
  const refused = eventRefusal(type, base);
  if (refused) throw new Error(refused);
  const [handler, test] = eventFiles(type);
  return write(base, [
    [handler, eventTemplate(type)],
    [test, eventTestTemplate(type)],
  ]);
};

/**
 * Writes the function and its test under `base`; throws with the refusal when the name cannot be used.
 * @example scaffold('lookup_order') // ['functions/lookup_order.ts', 'test/functions/lookup_order.test.ts']
 */
export const scaffold = (name: string, base: string = projectRoot()): string[] => {
  const refused = refusal(name, base);
  if (refused) throw new Error(refused);
  const [definition, test] = functionFiles(name);
  return write(base, [
    [definition, functionTemplate(name)],
    [test, testTemplate(name)],
  ]);
};

const USAGE = `Usage: agent-functions new <name> [--root <dir>]    (npm run new -- <name>)
       agent-functions new --event <type> [--root <dir>]

Creates functions/<name>.ts and test/functions/<name>.test.ts, or with --event
events/<type>.ts and test/events/<type>.test.ts, from a template that works as
generated, except that npm test fails on the scaffold's placeholder description
until you write your own (and npm run sync refuses it).

  <name>          the function's name on the platform: snake_case, e.g. lookup_order
  --event <type>  an event handler instead: the platform's event type, e.g. appointment.booked
  --root <dir>    the project folder (default: this project)
  --help          show this help`;

/** The next steps after scaffolding `name`, one per line. */
export const nextSteps = (name: string, files: string[]): string => `Created ${files.join(' and ')}.

Next steps:
  1. Edit ${files[0]}: the description (what it does, when to call it), the parameters, the handler.
     A new secret or var? Declare it (secrets: ['NAME']), add NAME= to .dev.vars.example,
     then npm run generate: until then context.env.NAME is a type error in npm test.
  2. npm test          type-checks, lints and runs every test, ${files[1]} included
  3. npm run dev       serves it locally at http://127.0.0.1:8787/functions/${name}
  4. Call it:          curl -X POST http://127.0.0.1:8787/functions/${name} \\
                         -H 'content-type: application/json' -d '{"question":"When do you open?"}'
  5. npm run deploy    puts it on Cloudflare
  6. npm run sync      registers it with the platform (npm run sync -- --dry-run shows the plan first)`;

/** The next steps after scaffolding the handler of event `type`, one per line. */
export const nextEventSteps = (type: string, files: string[]): string => `Created ${files.join(' and ')}.

Next steps:
  1. Edit ${files[0]}: the payload fields the handler reads, and the handler.
  2. npm test          type-checks, lints and runs every test, ${files[1]} included
  3. npm run dev       then: npm run platform -- emit ${type} '{"example": true}' --account agency
  4. npm run deploy    puts it on Cloudflare
  5. npm run sync      subscribes the webhook to ${type} (npm run sync -- --dry-run shows the plan first)`;

/** The CLI: returns the exit code (0 done, 1 refused, 2 usage). */
export const main = (argv: string[], out = process.stdout, err = process.stderr): number => {
  const paint = (style: Parameters<typeof styleText>[0], text: string, stream: NodeJS.WriteStream) =>
    styleText(style, text, { stream, validateStream: true });
  const names: string[] = [];
  let event: string | undefined;
  let base: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      out.write(`${USAGE}\n`);
      return 0;
    }
    if (arg === '--root' && argv[i + 1] !== undefined) base = argv[++i] as string;
    else if (arg === '--event' && argv[i + 1] !== undefined) event = argv[++i] as string;
    else if (arg.startsWith('-')) {
      err.write(`${paint('red', `Unknown option ${arg}.`, err)}\n\n${USAGE}\n`);
      return 2;
    } else names.push(arg);
  }
  const root = base ?? projectRoot();
  // Writes the files, then prints the next steps; a refusal creates nothing and says why.
  const create = (write: () => string[], steps: (files: string[]) => string): number => {
    try {
      const files = write().map((path) => relative(root, join(root, path)));
      // generated/ at once, so the new file's test runs before dev or npm test has (vitest's
      // globalSetup does it too); a file elsewhere in functions/ with a bad name is npm test's to report.
      try {
        generate(root);
      } catch {
        // Reported by npm test and npm run dev, with the file's name.
      }
      out.write(`${paint('green', '✓', out)} ${steps(files)}\n`);
      return 0;
    } catch (error) {
      err.write(`${paint('red', 'Nothing was created:', err)} ${(error as Error).message}\n`);
      return 1;
    }
  };
  if (event !== undefined) {
    if (names.length > 0) {
      err.write(`${paint('red', 'Give either a function name or --event <type>, not both.', err)}\n\n${USAGE}\n`);
      return 2;
    }
    return create(
      () => scaffoldEvent(event, root),
      (files) => nextEventSteps(event, files),
    );
  }
  if (names.length !== 1) {
    err.write(
      `${paint('red', names.length ? 'Give one name at a time.' : 'Give the new function a name.', err)}\n\n${USAGE}\n`,
    );
    return 2;
  }
  const name = names[0] as string;
  return create(
    () => scaffold(name, root),
    (files) => nextSteps(name, files),
  );
};
