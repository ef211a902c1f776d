// Where a running `npm run dev` is, for the project's other commands: `npm run platform -- call`
// finds dev's local platform even when dev had to choose another port than 8788, and `npm run
// stats` its console.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface DevState {
  /** The local platform's base url. */
  platformUrl: string;
  /** The accounts of platform.accounts.json on it (local keys only), so `npm run platform -- call --account <name>` finds them. */
  accounts?: Array<{ name: string; apiKey: string; baseUrl: string }>;
  /** The console's url, once it listens: `npm run stats` reads the figures there, `npm run platform -- call` whether an answer was a repeat. */
  consoleUrl?: string;
}

const fileOf = (root: string) => join(root, '.wrangler', 'dev.json');

/** Records the running dev (in .wrangler/, git-ignored). */
export const writeDevState = (root: string, state: DevState): void => {
  mkdirSync(dirname(fileOf(root)), { recursive: true });
  writeFileSync(fileOf(root), `${JSON.stringify(state)}\n`);
};

/** Forgets it, when dev stops. */
export const clearDevState = (root: string): void => rmSync(fileOf(root), { force: true });

/** The running dev's state, or undefined when none is recorded. */
export const readDevState = (root: string): DevState | undefined => {
  try {
    const state = JSON.parse(readFileSync(fileOf(root), 'utf8')) as Partial<DevState>;
    if (typeof state.platformUrl !== 'string') return undefined;
    const accounts = Array.isArray(state.accounts)
      ? state.accounts.filter(
          (account) =>
            typeof account?.name === 'string' &&
            typeof account.apiKey === 'string' &&
            typeof account.baseUrl === 'string',
        )
      : [];
    return {
      platformUrl: state.platformUrl,
      ...(accounts.length > 0 ? { accounts } : {}),
      ...(typeof state.consoleUrl === 'string' ? { consoleUrl: state.consoleUrl } : {}),
    };
  } catch {
    return undefined;
  }
};
