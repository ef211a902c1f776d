// Which values the local Worker gets under `npm run dev`, and from where. wrangler dev would read
// `.dev.vars`, or `.env` when there is no `.dev.vars`; but `.env` holds sync's settings (a real
// platform, the deployed Worker's secret), so dev never lets it reach the Worker, and passes every
// value it wires itself with `--var`, which wins over both files. `.dev.vars` stays yours: what it
// sets is used, and dev says so. Every account of the accounts file reads its key (and its base
// url) from the variables it names, so each is wired to that account on the local platform.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { weakSecretProblem } from 'agent-functions/internal';
import { ACCOUNTS_FILE, loadAccountsConfig, localKeyEnv } from '../project/accounts.ts';
import type { DevAccount } from './accounts.ts';

/** What dev runs itself: the local platform, and the settings of the project's stand-ins (dev.config.ts). */
export interface LocalServices {
  platformUrl: string;
  platformApiKey: string;
  /** Every account of the accounts file on the local platform (default: the first, at platformUrl with platformApiKey). */
  accounts?: Pick<DevAccount, 'name' | 'apiKey' | 'baseUrl'>[];
  /** What the project's dev.config.ts setup gave the Worker. */
  standIns?: Record<string, string>;
}

export interface DevVars {
  /** `--var NAME:value` pairs for wrangler dev (never a value of .dev.vars: wrangler reads those itself). */
  vars: Record<string, string>;
  /** The Worker's FUNCTIONS_SECRET, or undefined: then it serves every function without a key. */
  secret: string | undefined;
  /** One line per value a file sets that dev does not use or that replaces a local service. */
  notes: string[];
  /** Reasons not to start (a placeholder or short secret). */
  problems: string[];
}

const read = (path: string): Record<string, string | undefined> =>
  existsSync(path) ? parseEnv(readFileSync(path, 'utf8')) : {};

/**
 * The values of the local Worker, given the project's files and the services dev started.
 * @example devVars('/repo', services).vars // { PLATFORM_BASE_URL: 'http://127.0.0.1:8788', ... }
 */
export const devVars = (root: string, services: LocalServices): DevVars => {
  const devVarsFile = read(join(root, '.dev.vars'));
  const envFile = read(join(root, '.env'));
  const notes: string[] = [];
  const problems: string[] = [];
  const wired: Record<string, string> = {
    ...services.standIns,
    PLATFORM_BASE_URL: services.platformUrl,
    PLATFORM_API_KEY: services.platformApiKey,
  };
  try {
    const config = loadAccountsConfig(join(root, ACCOUNTS_FILE));
    const locals = services.accounts ?? [
      { name: config.accounts[0]?.name ?? '', apiKey: services.platformApiKey, baseUrl: services.platformUrl },
    ];
    const own: Record<string, string> = {};
    // In the file's order, the first account wins a variable two accounts name.
    for (const account of config.accounts) {
      const local = locals.find((candidate) => candidate.name === account.name);
      if (!local) continue;
      // A stored-key account's key is in the deployed Worker's account store; dev's build reads its
      // local key from a variable of dev's own instead (localKeyEnv).
      own[account.apiKeyEnv ?? localKeyEnv(account.name)] ??= local.apiKey;
      if (!account.baseUrl) own[account.baseUrlEnv ?? 'PLATFORM_BASE_URL'] ??= local.baseUrl;
      else {
        notes.push(
          `Account "${account.name}" gives its baseUrl in ${ACCOUNTS_FILE}, so the local Worker calls ${account.baseUrl} for it (its messages, its events' signing secret), not the local platform; use baseUrlEnv to run it locally.`,
        );
      }
    }
    Object.assign(wired, own);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const vars: Record<string, string> = { AGENT_FUNCTIONS_MODE: 'development' };
  for (const [name, value] of Object.entries(wired)) {
    const own = devVarsFile[name];
    // What .dev.vars sets, wrangler reads from there; only dev's own values travel as --var.
    if (own)
      notes.push(
        `${name} comes from .dev.vars (${name.endsWith('KEY') ? '***' : own}), not from dev's local stand-in.`,
      );
    else vars[name] = value;
  }
  const shadowed = Object.keys(envFile).filter((name) => envFile[name] && !devVarsFile[name]);
  if (shadowed.length > 0) {
    notes.push(`.env is for npm run sync; the local Worker does not read it (${shadowed.join(', ')} ignored here).`);
  }

  const secret = devVarsFile.FUNCTIONS_SECRET?.trim() || undefined;
  if (secret) {
    const problem = weakSecretProblem(secret, '.dev.vars');
    if (problem) problems.push(`${problem}, or delete the line to call functions without a key locally.`);
    else {
      notes.push(
        'FUNCTIONS_SECRET comes from .dev.vars: every call needs its key (use the lines below), so a keyless curl answers 401. Delete the line to call without a key.',
      );
    }
  } else vars.FUNCTIONS_SECRET = '';
  return { vars, secret, notes, problems };
};
