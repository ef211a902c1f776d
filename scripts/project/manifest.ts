import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FunctionRecord } from 'agent-functions/platform';
import { functionRecord } from 'agent-functions/platform';
import { functionUrl, manifestKey } from 'agent-functions/worker';
import { z } from 'zod';
import { loadWrangler } from '../wrangler.ts';
import { generate } from './generated.ts';
import { projectRoot } from './paths.ts';

// The registration record without its url (sync adds it, with the key), plus the Worker's path.
const manifestSchema = z.object({
  functions: z.array(
    functionRecord.pick({ name: true, description: true, parameters: true }).extend({
      path: z.string().startsWith('/'),
      secrets: z.array(z.string()).optional(),
      vars: z.array(z.string()).optional(),
      // Not registered, but what the description linter reads beside the description.
      jsonSchema: z.record(z.string(), z.unknown()).optional(),
      annotations: z.record(z.string(), z.boolean()).optional(),
      effect: z.string().optional(),
    }),
  ),
});

/** One function as the Worker describes it: what sync registers, before the url is added. */
export type ServedFunction = z.infer<typeof manifestSchema>['functions'][number];

/** The Worker could not be started or did not answer with a manifest. */
export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestError';
  }
}

/** A Worker's non-200 answer to `GET path` as a ManifestError with the Worker's own message. */
export const refusedAnswer = (path: string, status: number, text: string): ManifestError => {
  let detail = text.slice(0, 300);
  try {
    detail = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? detail;
  } catch {
    // Not JSON: show the start of the text.
  }
  // A definition the platform's flat map cannot carry fails the manifest as a whole.
  const hint =
    status >= 500 ? ' A function definition is probably invalid: `npm test` names the file and the field.' : '';
  return new ManifestError(`The Worker answered ${status} to GET ${path}: ${detail}${hint}`);
};

/** Checks a `GET /functions` answer and returns its functions, sorted by name. */
export const parseManifest = (status: number, text: string): ServedFunction[] => {
  if (status !== 200) throw refusedAnswer('/functions', status, text);
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new ManifestError(`The Worker's manifest is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data.functions.toSorted((a, b) => a.name.localeCompare(b.name));
};

/** What the Worker answered to one GET. */
export interface WorkerAnswer {
  status: number;
  text: string;
}

/**
 * Starts the project's Worker locally (workerd, no network, no account), GETs `path` with the
 * manifest key, stops it.
 * @example const { status, text } = await readFromWorker('/openapi.json', { secret })
 */
export const readFromWorker = async (
  path: string,
  options: { secret: string; root?: string },
): Promise<WorkerAnswer> => {
  // No Request.cf lookup: it would reach out to the network and only warns when offline.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';
  const root = options.root ?? projectRoot();
  // The registries first, here: a file whose name is no function name is named with what is wrong,
  // where wrangler's build step would only say "there are likely more logs above" (there are none).
  try {
    // A folder with no functions/ is no project: wrangler then says what is missing.
    if (existsSync(join(root, 'functions'))) generate(root);
  } catch (error) {
    throw new ManifestError(`The Worker was not built: ${(error as Error).message}`);
  }
  const { createTestHarness } = loadWrangler();
  const server = createTestHarness({
    root,
    workers: [
      {
        configPath: './wrangler.toml',
        // Production mode, so the manifest is read exactly as the deployed Worker guards it.
        vars: { AGENT_FUNCTIONS_MODE: 'production' },
        secrets: { FUNCTIONS_SECRET: options.secret },
      },
    ],
  });
  try {
    try {
      await server.listen();
    } catch (error) {
      throw new ManifestError(`The Worker did not start: ${(error as Error).message}`);
    }
    const response = await server.getWorker().fetch(`http://localhost${path}`, {
      headers: { authorization: `Bearer ${await manifestKey(options.secret)}` },
    });
    return { status: response.status, text: await response.text() };
  } finally {
    await server.close();
  }
};

/**
 * Reads the manifest from the project's Worker, started locally.
 * @example const served = await readManifest({ secret: process.env.FUNCTIONS_SECRET })
 */
export const readManifest = async (options: { secret: string; root?: string }): Promise<ServedFunction[]> => {
  const { status, text } = await readFromWorker('/functions', options);
  return parseManifest(status, text);
};

/**
 * The registration of every served function, its url built from `origin` and the secret; with
 * `account` (any account but the first, docs/platform-contract.md §10), the url names it and its key is bound to it.
 * @example await desiredFunctions(served, 'https://fns.example.dev', secret)
 * @example await desiredFunctions(served, 'https://fns.example.dev', secret, 'client-acme')
 */
export const desiredFunctions = (
  served: ServedFunction[],
  origin: string,
  secret: string,
  account?: string,
): Promise<FunctionRecord[]> =>
  Promise.all(
    served.map(async (fn) => ({
      name: fn.name,
      description: fn.description,
      parameters: fn.parameters,
      url: await functionUrl(origin, fn, secret, account),
    })),
  );

/** Keeps the functions named in `names` (all when `names` is undefined). */
export const selectFunctions = (desired: FunctionRecord[], names: readonly string[] | undefined): FunctionRecord[] =>
  names ? desired.filter((fn) => names.includes(fn.name)) : desired;
