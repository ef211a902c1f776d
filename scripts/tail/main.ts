// `npm run tail`: follows the deployed Worker's logs (wrangler tail --format json) and prints one
// readable line per call: time, status, function, duration, account, request id. Ctrl-C stops it.
import { parseArgs, styleText } from 'node:util';
import type { CommandIo } from '../io.ts';
import { envFlags, environmentOf, spawnWrangler } from '../wrangler.ts';
import { callOf, formatCall, matches, type TailedCall, type TailFilter } from './format.ts';
import { jsonSplitter } from './split.ts';

export const HELP = `Usage: npm run tail -- [options]

Follows the deployed Worker's logs live (wrangler tail) and prints one line per call:
time, status, function, duration and request id; warnings, errors and exceptions of the call
follow, indented. Urls are shown without their query string (it carries the function's key).
Needs wrangler to be logged in (CLOUDFLARE_API_TOKEN, or npx wrangler login).

Options:
  --env NAME          Follow that environment's Worker (for example staging); default production.
  --account a,b       Only calls in these accounts (each line names its account).
  --function a,b      Only calls of these functions.
  --status 5xx,429    Only these statuses (a code, or 2xx/4xx/5xx).
  --json              One JSON object per call instead of text (for jq).
  --stdin             Read wrangler tail --format json output from standard input instead of
                      starting wrangler (format a saved log: npm run tail -- --stdin < tail.json).
  -h, --help          Show this help.
`;

export interface TailIo extends Pick<CommandIo, 'stdout' | 'stderr'> {
  /** The events to format: wrangler's output, or standard input with --stdin. */
  source?: (args: TailArgs) => NodeJS.ReadableStream;
}

export interface TailArgs extends TailFilter {
  help: boolean;
  env: string | undefined;
  json: boolean;
  stdin: boolean;
}

const list = (values: string[] | undefined) =>
  values
    ?.flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);

/** Parses the flags; throws a one-line error for anything unknown or malformed. */
export const parseTailArgs = (argv: string[]): TailArgs => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      env: { type: 'string', short: 'e' },
      account: { type: 'string', multiple: true },
      function: { type: 'string', multiple: true },
      status: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      stdin: { type: 'boolean', default: false },
    },
  });
  if (positionals.length > 0) throw new Error(`Unexpected argument "${positionals[0]}"; see --help.`);
  const env = environmentOf(values.env);
  const statuses = list(values.status);
  const bad = statuses?.find((status) => !/^(?:[1-5]\d\d|[1-5]xx)$/i.test(status));
  if (bad) throw new Error(`--status takes codes such as 404 or classes such as 5xx, not "${bad}".`);
  const functions = list(values.function);
  const accounts = list(values.account);
  return {
    help: values.help,
    env,
    json: values.json,
    stdin: values.stdin,
    ...(accounts ? { accounts } : {}),
    ...(functions ? { functions } : {}),
    ...(statuses ? { statuses } : {}),
  };
};

/** wrangler tail of the project's Worker, JSON format; its own messages go to our stderr. */
const wranglerTail = (args: TailArgs, stderr: NodeJS.WritableStream): NodeJS.ReadableStream => {
  const child = spawnWrangler(['tail', '--format', 'json', ...envFlags(args.env)]);
  child.stdin?.end();
  child.stderr?.pipe(stderr, { end: false });
  child.on('exit', (code) => {
    if (code) process.exitCode = code;
  });
  return child.stdout as NodeJS.ReadableStream;
};

/**
 * Runs the tail until its source ends; returns the exit code.
 * @example process.exitCode = await runTail(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr })
 */
export const runTail = async (argv: string[], io: TailIo): Promise<number> => {
  let args: TailArgs;
  try {
    args = parseTailArgs(argv);
  } catch (error) {
    io.stderr.write(`${(error as Error).message.split('. ')[0]?.replace(/\.$/, '')}. See npm run tail -- --help.\n`);
    return 1;
  }
  if (args.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const source = io.source?.(args) ?? (args.stdin ? process.stdin : wranglerTail(args, io.stderr));
  const colour = (style: Parameters<typeof styleText>[0], text: string) =>
    styleText(style, text, { stream: io.stdout, validateStream: true });
  const print = (call: TailedCall) =>
    io.stdout.write(`${args.json ? JSON.stringify(call) : formatCall(call, colour)}\n`);
  const split = jsonSplitter();
  for await (const chunk of source) {
    for (const text of split.push(String(chunk))) {
      let event: unknown;
      try {
        event = JSON.parse(text);
      } catch {
        continue;
      }
      const call = callOf(event);
      if (call && matches(call, args)) print(call);
    }
  }
  return 0;
};

/** `agent-functions tail`. */
export const main = (argv: string[]): Promise<number> =>
  runTail(argv, { stdout: process.stdout, stderr: process.stderr });
