// `agent-functions mcp clients|revoke <id>`: the OAuth clients the owner approved on the deployed
// Worker's /mcp, listed or revoked (their registration, grants and tokens) through the Worker's
// owner endpoints, with the manifest key derived from FUNCTIONS_SECRET (as sync reads the manifest).
import { existsSync } from 'node:fs';
import { parseArgs, styleText } from 'node:util';
import { weakSecretProblem } from 'agent-functions/internal';
import { printable } from 'agent-functions/platform';
import { manifestKey, normalizeOrigin } from 'agent-functions/worker';
import type { CommandIo } from '../io.ts';
import { projectPaths } from '../project/paths.ts';
import { environmentOf } from '../wrangler.ts';

export const HELP = `Usage: agent-functions mcp <command> [--env NAME] [--json]

The OAuth clients approved on the deployed Worker's /mcp (docs/mcp.md):

  clients          lists each client: its id, name, redirect urls, when it registered, its grants
  revoke <id>      revokes one: its registration, grants and tokens stop working at once

Reads FUNCTIONS_BASE_URL (the deployed Worker) and FUNCTIONS_SECRET from the environment, or from
.env (.env.NAME with --env NAME), as npm run sync does.

  --env NAME       the wrangler.toml environment, e.g. staging (default: production)
  --json           print the answer as JSON
  -h, --help       this text
`;

/** The control characters JSON leaves as they are: DEL, C1, line/paragraph separators, bidi controls. */
const JSON_UNESCAPED_CONTROL = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

interface Client {
  clientId: string;
  clientName: string | null;
  redirectUris: string[];
  registeredAt: string | null;
  grants: number;
}

/** What the command reads and writes, so tests can run it in this process. */
export interface McpIo extends CommandIo {
  fetch?: typeof fetch;
}

/** Runs `agent-functions mcp <argv>`; returns the exit code (2 usage, 1 refused or failed). */
export const runMcp = async (argv: string[], io: McpIo): Promise<number> => {
  const fail = (message: string, code = 1) => {
    io.stderr.write(`${styleText('red', message, { stream: io.stderr, validateStream: true })}\n`);
    return code;
  };
  let parsed: ReturnType<
    typeof parseArgs<{
      allowPositionals: true;
      options: { env: { type: 'string' }; json: { type: 'boolean' }; help: { type: 'boolean'; short: 'h' } };
    }>
  >;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { env: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return fail(`${(error as Error).message.split('. ')[0]}. See agent-functions mcp --help.`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const [command, id, ...rest] = positionals;
  const valid = (command === 'clients' && id === undefined) || (command === 'revoke' && id !== undefined);
  if (!valid || rest.length > 0) return fail(`${HELP}`, 2);
  try {
    environmentOf(values.env);
  } catch (error) {
    return fail((error as Error).message, 2);
  }
  const base = io.env.FUNCTIONS_BASE_URL?.trim();
  const secret = io.env.FUNCTIONS_SECRET?.trim();
  const missing = [...(base ? [] : ['FUNCTIONS_BASE_URL']), ...(secret ? [] : ['FUNCTIONS_SECRET'])];
  if (missing.length > 0 || !base || !secret) {
    return fail(
      `Missing ${missing.join(' and ')}: set them in the environment or in ${values.env ? `.env.${values.env}` : '.env'}.`,
    );
  }
  const weak = weakSecretProblem(secret, 'the environment (or .env)');
  if (weak) return fail(weak);
  const origin = normalizeOrigin(base);
  const path = command === 'clients' ? '/oauth/clients' : `/oauth/clients/${encodeURIComponent(id as string)}`;
  let response: Response;
  try {
    response = await (io.fetch ?? fetch)(`${origin}${path}`, {
      method: command === 'clients' ? 'GET' : 'DELETE',
      headers: { authorization: `Bearer ${await manifestKey(secret)}`, accept: 'application/json' },
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    return fail(`The Worker at ${origin} did not answer (${(error as Error).name}).`);
  }
  const text = await response.text();
  if (!response.ok) {
    const why =
      response.status === 401
        ? 'the Worker refused the key: is FUNCTIONS_SECRET the deployed one?'
        : response.status === 404
          ? command === 'revoke'
            ? `no client ${id} there.`
            : 'the Worker serves no OAuth (is MCP on in worker.ts, and OAUTH_KV bound?).'
          : `it answered ${response.status}.`;
    return fail(`${command === 'clients' ? 'Listing' : 'Revoking'} OAuth clients at ${origin} failed: ${why}`);
  }
  if (values.json) {
    // JSON escapes C0 itself; DEL, C1 and bidi controls are escaped here, so the document stays the same JSON.
    io.stdout.write(
      `${text.replace(JSON_UNESCAPED_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`,
    );
    return 0;
  }
  if (command === 'revoke') {
    io.stdout.write(`Revoked ${id}: its registration, grants and tokens no longer work.\n`);
    return 0;
  }
  const { clients } = JSON.parse(text) as { clients: Client[] };
  if (clients.length === 0) {
    io.stdout.write(`No OAuth client is registered at ${origin}.\n`);
    return 0;
  }
  // What a client registered is theirs, not ours: no escape sequence or bidi control reaches the
  // terminal, so no line can hide another (a Worker older than that check may hold one).
  const shown = (value: unknown, max: number) => printable(String(value), max);
  for (const client of clients) {
    io.stdout.write(
      `${shown(client.clientId, 80)}  ${client.clientName === null ? '(no name)' : shown(client.clientName, 120)}  ${Number(client.grants)} grant(s)  registered ${shown(client.registeredAt ?? '?', 40)}  → ${client.redirectUris.map((uri) => shown(uri, 512)).join(', ')}\n`,
    );
  }
  io.stdout.write(`Revoke one with: agent-functions mcp revoke <id>${values.env ? ` --env ${values.env}` : ''}\n`);
  return 0;
};

/** `agent-functions mcp`: loads the environment's .env file, then runs the subcommand. */
export const main = (argv: string[]): Promise<number> => {
  const env = argv.includes('--env') ? argv[argv.indexOf('--env') + 1] : undefined;
  const dotenv = projectPaths().dotenv(env);
  if (existsSync(dotenv)) process.loadEnvFile(dotenv);
  return runMcp(argv, { env: process.env, stdout: process.stdout, stderr: process.stderr });
};
