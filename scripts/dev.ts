// `npm run dev`: the whole loop on a laptop, no account needed. The local platform (8788), the
// Worker under wrangler dev (8787, development mode), and a sync of every function to the
// platform's Agency account on start and whenever functions/ changes. Flags after `--` go to
// wrangler dev (`npm run dev -- --port 9000`). Ctrl-C stops everything.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, type FSWatcher, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseEnv, styleText } from 'node:util';
import { functionUrl } from '../src/url.ts';
import { DEFAULT_PORT, type RunningEmulator, startEmulator } from './platform/emulator.ts';
import { runSync } from './sync/cli.ts';
import { PROJECT_ROOT, parseManifest, type ServedFunction } from './sync/manifest.ts';

const wranglerArgs = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = wranglerArgs.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (at === -1) return undefined;
  const arg = wranglerArgs[at] as string;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : wranglerArgs[at + 1];
};
const port = Number(flag('--port') ?? 8787);
const ip = flag('--ip') ?? '127.0.0.1';
const host = ip === '0.0.0.0' || ip === '::' ? '127.0.0.1' : ip;
const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

// The Worker's key secret is the one in .dev.vars, if any; without it, development serves every
// function without a key (as the README's quick start shows), and the registered urls carry keys
// from a secret of this session only.
const devVars = join(PROJECT_ROOT, '.dev.vars');
const fromFile = existsSync(devVars) ? parseEnv(readFileSync(devVars, 'utf8')).FUNCTIONS_SECRET : undefined;
const secret = fromFile || randomBytes(24).toString('base64url');

const say = (text: string) => console.log(styleText('cyan', `[dev] ${text}`));

let platform: RunningEmulator | undefined;
let platformUrl = `http://127.0.0.1:${DEFAULT_PORT}`;
try {
  platform = await startEmulator({ port: DEFAULT_PORT });
  platformUrl = platform.url;
  say(
    `local platform on ${platformUrl} (Agency account key: ${platform.accounts.find((a) => a.plan === 'agency')?.apiKey})`,
  );
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  say(`port ${DEFAULT_PORT} is taken: using the platform already running there (npm run platform).`);
}
const agencyKey = platform?.accounts.find((a) => a.plan === 'agency')?.apiKey ?? 'local-agency-key';

const worker: ChildProcess = spawn('wrangler', ['dev', '--var', 'AGENT_FUNCTIONS_MODE:development', ...wranglerArgs], {
  cwd: PROJECT_ROOT,
  stdio: 'inherit',
  // No Request.cf lookup: it reaches out to the network at every start, and only warns when offline.
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? 'false' },
});

let stopping = false;
let watcher: FSWatcher | undefined;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  watcher?.close();
  if (worker.exitCode === null) worker.kill('SIGINT');
  await platform?.close();
  process.exit(code);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
worker.on('exit', (code) => {
  if (!stopping) {
    console.error(styleText('red', `[dev] wrangler dev stopped (exit ${code}).`));
    void stop(code ?? 1);
  }
});

/** The manifest the running Worker serves, or undefined while it is (re)starting. */
const manifest = async (): Promise<ServedFunction[] | undefined> => {
  try {
    const response = await fetch(`${origin}/functions`, {
      headers: { authorization: `Bearer ${secret}` },
      signal: AbortSignal.timeout(3000),
    });
    return parseManifest(response.status, await response.text());
  } catch {
    return undefined;
  }
};

/** A value for each required parameter, from its JSON Schema, for the example call. */
const exampleArgs = (schema: unknown): Record<string, unknown> => {
  const { properties = {}, required = [] } = (schema ?? {}) as {
    properties?: Record<string, { type?: string; enum?: unknown[]; minimum?: number }>;
    required?: string[];
  };
  return Object.fromEntries(
    required.map((name) => {
      const p = properties[name] ?? {};
      if (p.enum?.length) return [name, p.enum[0]];
      if (p.type === 'number' || p.type === 'integer') return [name, p.minimum ?? 1];
      if (p.type === 'boolean') return [name, true];
      return [name, 'example'];
    }),
  );
};

let lastSynced = '';
const syncNow = async (served: ServedFunction[]) => {
  lastSynced = JSON.stringify(served);
  say(`syncing ${served.length} function(s) to the local platform's Agency account…`);
  const { exitCode } = await runSync(['--prune'], {
    env: {
      PLATFORM_BASE_URL: platformUrl,
      PLATFORM_API_KEY: agencyKey,
      FUNCTIONS_BASE_URL: origin,
      FUNCTIONS_SECRET: secret,
    },
    config: { accounts: [{ name: 'local-agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }] },
    stdout: process.stdout,
    stderr: process.stderr,
    readManifest: async () => served,
    roundDelayMs: 200,
  });
  if (exitCode !== 0) console.error(styleText('red', `[dev] sync ended with exit code ${exitCode}.`));
};

const showHowToCall = async (served: ServedFunction[]) => {
  const first = served.find((fn) => fn.name === 'quote_price') ?? served[0];
  if (!first) return say('functions/ is empty: add a file there (npm run new -- <name>).');
  const response = await fetch(`${origin}/functions`, { headers: { authorization: `Bearer ${secret}` } });
  const full = (await response.json()) as { functions: { name: string; jsonSchema?: unknown }[] };
  const args = JSON.stringify(exampleArgs(full.functions.find((fn) => fn.name === first.name)?.jsonSchema));
  say('ready. Call a function as the agent would:');
  console.log(`  npm run platform -- call ${first.name} '${args}' --account agency`);
  const url = await functionUrl(origin, first, secret);
  console.log(`  curl -s -X POST '${url}' -H 'content-type: application/json' -d '${args}'`);
  say(`MCP server (open locally, README "MCP"): ${origin}/mcp`);
  say('edit functions/ and it re-syncs; Ctrl-C stops everything.');
};

// First sync once the Worker answers.
let served: ServedFunction[] | undefined;
for (let i = 0; i < 240 && !stopping && !served; i++) {
  served = await manifest();
  if (!served) await sleep(500);
}
if (!served) {
  console.error(styleText('red', '[dev] the Worker did not answer within 2 minutes.'));
  await stop(1);
} else {
  await syncNow(served);
  await showHowToCall(served);
}

// On a change in functions/, wait for wrangler's reload to show a new manifest, then sync it.
let timer: NodeJS.Timeout | undefined;
let busy = Promise.resolve();
if (!stopping)
  watcher = watch(join(PROJECT_ROOT, 'functions'), { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      busy = busy.then(async () => {
        // A change of a handler only leaves the manifest as it was: a few looks, then nothing to do.
        await sleep(1000);
        for (let i = 0; i < 5 && !stopping; i++) {
          const next = await manifest();
          if (next && JSON.stringify(next) !== lastSynced) return syncNow(next);
          await sleep(1000);
        }
      });
    }, 300);
  });
