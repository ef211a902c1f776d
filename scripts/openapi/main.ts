// `npm run openapi`: writes the OpenAPI 3.1 document of the functions, for platforms that import
// OpenAPI. It reads the manifest from the project's Worker and builds the document with
// src/openapi.ts, the builder behind the Worker's GET /openapi.json, so both are the same.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs, styleText } from 'node:util';
import { type DocumentedFunction, openApiDocument } from 'agent-functions/openapi';
import { normalizeOrigin } from 'agent-functions/worker';
import { parseManifest, readFromWorker, type WorkerAnswer } from '../project/manifest.ts';
import { projectRoot } from '../project/paths.ts';

/** npm run dev's origin: the server of a document written before anything is deployed. */
const LOCAL_ORIGIN = 'http://127.0.0.1:8787';

export const USAGE = `Usage: npm run openapi -- [--out FILE] [--server URL] [--root DIR]

Writes the OpenAPI 3.1 document of every function in functions/: one POST /functions/<name>
operation each (operationId = the name, the JSON Schema of its arguments as request body, the
three key placements as security schemes, the error shape as responses), from the manifest of
the project's Worker, started locally, as its GET /openapi.json builds it.

Options:
  -o, --out FILE    Where to write it (default: openapi.json at the project's root; - for stdout).
  --server URL      The servers entry (default: FUNCTIONS_BASE_URL, else ${LOCAL_ORIGIN}, npm run dev's).
  --root DIR        The project whose Worker to start (default: this one).
  -h, --help        Show this help.

Exit codes: 0 written, 1 the document could not be built (the message says why), 2 bad usage.`;

/** Where the manifest comes from: the project's Worker, started locally (tests may give another answer). */
export type ManifestSource = (root: string) => Promise<WorkerAnswer>;

const fromProjectWorker: ManifestSource = (root) =>
  // Any secret will do: it lives only as long as this local Worker.
  readFromWorker('/functions', { secret: randomBytes(24).toString('base64url'), root });

/** The CLI: returns the exit code. */
export const main = async (
  argv: string[],
  io: {
    out?: NodeJS.WritableStream;
    err?: NodeJS.WritableStream;
    env?: NodeJS.ProcessEnv;
    source?: ManifestSource;
  } = {},
): Promise<number> => {
  const { out = process.stdout, err = process.stderr, env = process.env, source = fromProjectWorker } = io;
  const red = (text: string) => styleText('red', text, { stream: err, validateStream: true });
  let values: { out?: string; server?: string; root?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        out: { type: 'string', short: 'o' },
        server: { type: 'string' },
        root: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    err.write(`${red((error as Error).message)}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    out.write(`${USAGE}\n`);
    return 0;
  }
  const server = values.server ?? env.FUNCTIONS_BASE_URL;
  if (server && !URL.canParse(server)) {
    err.write(`${red(`--server (or FUNCTIONS_BASE_URL) is not a URL: "${server}".`)}\n`);
    return 2;
  }
  try {
    const root = resolve(values.root ?? projectRoot());
    const { status, text } = await source(root);
    // Checks the status and the shape, and passes on the Worker's message for a broken definition.
    parseManifest(status, text);
    const { functions } = JSON.parse(text) as { functions: DocumentedFunction[] };
    // The local Worker's origin means nothing to an importer: the deployed one, or npm run dev's.
    const serverUrl = normalizeOrigin(server || LOCAL_ORIGIN);
    const body = `${JSON.stringify(openApiDocument(functions, serverUrl), null, 2)}\n`;
    if (values.out === '-') {
      out.write(body);
      return 0;
    }
    const target = resolve(values.out ?? resolve(root, 'openapi.json'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, body);
    const shown = relative(process.cwd(), target);
    out.write(
      `Wrote ${shown.startsWith('..') ? target : shown} (${functions.length} operations, server ${serverUrl}).\n`,
    );
    return 0;
  } catch (error) {
    err.write(`${red('The OpenAPI document could not be built:')} ${(error as Error).message}\n`);
    return 1;
  }
};
