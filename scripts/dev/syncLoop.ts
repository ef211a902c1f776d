// How `npm run dev` keeps every account of its local platform holding what the Worker serves: a
// first sync once the Worker answers, then on each change (once changes pause) a check that the
// files build, a wait for wrangler's reload to show a new manifest (or a new set of event types), a
// sync of it, and a check that the platform still holds what the Worker serves, synced again if not.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DevAccount } from '../local/accounts.ts';
import { eventTypes } from '../project/generated.ts';
import type { ServedFunction } from '../project/manifest.ts';
import { debounced } from './debounced.ts';
import { leaveOutUnwritten } from './drafts.ts';
import { accountsDrift, registerOnAccounts } from './register.ts';
import { buildReporter } from './report.ts';
import { syncSummary } from './syncSummary.ts';
import type { ManifestRead } from './workerManifest.ts';

export interface SyncLoopOptions {
  accounts: DevAccount[];
  /** The local Worker's origin and the secret its keys come from. */
  origin: string;
  secret: string;
  root: string;
  /** Reads the Worker's manifest (undefined while it is (re)starting). */
  manifest: () => Promise<ManifestRead | undefined>;
  say: (text: string) => void;
  warn: (text: string) => void;
  fail: (text: string) => void;
  /** Called with what the Worker serves before each sync (dev's check of declared settings). */
  onServed?: (served: ServedFunction[]) => void;
  /** Where each sync prints its table (default: this process's). */
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Quiet time after the last change before a reload (default 300 ms). */
  debounceMs?: number;
  /** The pause before each look at the manifest after a change (default 1000 ms), and how many looks (8). */
  reloadWaitMs?: number;
  reloadLooks?: number;
  /** The pause between looks while the Worker starts (default 500 ms), and how many (240: two minutes). */
  startPollMs?: number;
  startLooks?: number;
}

export interface SyncLoop {
  /** The manifest read last; undefined until the Worker first answered. */
  current(): ManifestRead | undefined;
  /** Says which files do not build (before the Worker starts, and before each reload). */
  reportBuilds(): Promise<void>;
  /** The Worker's first answer, or undefined when none came in time (or the loop was closed). */
  waitForWorker(): Promise<ManifestRead | undefined>;
  /** Syncs what the Worker serves now, or says what is wrong with its manifest. */
  syncCurrent(): Promise<void>;
  /** After a change: the build report, the new manifest synced if it differs, then the drift check. */
  reload(): Promise<void>;
  /** Compares the accounts with what the Worker serves; on a difference says so and syncs. */
  checkDrift(): Promise<void>;
  /** A change in functions/, events/ or lib/: one reload once changes pause; resolves when it ran. */
  onChange(): Promise<void>;
  /** No more looks, syncs or reloads. */
  close(): void;
}

/** A stream that keeps what was written. */
const captured = () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { stream, text: () => text };
};

/**
 * What a sync registered: the served functions and the event types of events/ (or, for a file there
 * whose name is not an event type, its message, so the next change looks new).
 */
const syncedStateOf = (root: string, served: ServedFunction[]): string => {
  try {
    return JSON.stringify({ served, events: eventTypes(join(root, 'events')) });
  } catch (error) {
    return JSON.stringify({ served, events: (error as Error).message });
  }
};

/**
 * Registers `synced` on every account; `quiet` (after a save) prints only what changed
 * (syncSummary.ts), and sync's whole report when a write failed. Returns sync's exit code.
 */
const registerQuietly = async (options: SyncLoopOptions, synced: ServedFunction[], quiet: boolean): Promise<number> => {
  const { accounts, origin, secret, root, say } = options;
  const [stdout, stderr] = [options.stdout ?? process.stdout, options.stderr ?? process.stderr];
  const [out, err] = [captured(), captured()];
  const { exitCode, reports } = await registerOnAccounts({
    accounts,
    origin,
    secret,
    served: synced,
    heading: "The local platform's accounts (npm run dev)",
    stdout: quiet ? out.stream : stdout,
    stderr: quiet ? err.stream : stderr,
    root,
  });
  if (quiet && exitCode !== 0) {
    stdout.write(out.text());
    stderr.write(err.text());
  }
  if (quiet && exitCode === 0) for (const line of syncSummary(reports, accounts.length)) say(line);
  return exitCode;
};

/** `served`, plus each function registered before whose file is still there (it does not build, or is not reloaded yet). */
const withKeptOf = (
  root: string,
  lastGood: Map<string, ServedFunction>,
  served: ServedFunction[],
): ServedFunction[] => [
  ...served,
  ...[...lastGood.values()].filter(
    (fn) => !served.some((s) => s.name === fn.name) && existsSync(join(root, 'functions', `${fn.name}.ts`)),
  ),
];

/** Why events/ cannot be synced (a file whose name is no event type), if so. */
const eventsProblemOf = (root: string): string | undefined => {
  try {
    eventTypes(join(root, 'events'));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

/**
 * The sync loop of `npm run dev`, holding what it last synced.
 * @example const loop = createSyncLoop({ accounts, origin, secret, root, manifest, say, warn, fail }); await loop.waitForWorker();
 */
export const createSyncLoop = (options: SyncLoopOptions): SyncLoop => {
  const { accounts, origin, secret, root, manifest, say, warn, fail } = options;
  const { debounceMs = 300, reloadWaitMs = 1000, reloadLooks = 8, startPollMs = 500, startLooks = 240 } = options;
  let closed = false;
  let current: ManifestRead | undefined;

  // What the last sync registered, by name. A function the Worker leaves out while its file is
  // still there (it does not build, or wrangler has not reloaded yet) keeps that registration: a
  // syntax error never tells the model the function is gone. A removed file is a function gone.
  let lastGood = new Map<string, ServedFunction>();
  const withKept = (served: ServedFunction[]) => withKeptOf(root, lastGood, served);
  const reportBuilds = buildReporter(root, { say, fail, registered: (name) => lastGood.has(name) });

  let lastProblem = '';
  const showProblem = (read: ManifestRead) => {
    if (!('error' in read) || read.error === lastProblem) return;
    lastProblem = read.error;
    fail(`${read.error}\nThe other functions are still served, but nothing is synced until this is fixed.`);
  };

  let lastSynced = '';
  let lastLeftOut: string | undefined;
  /** Syncs what the Worker serves; `quiet` (after a save) prints only the writes it made. */
  const syncNow = async (manifestServed: ServedFunction[], quiet = false) => {
    const served = withKept(manifestServed);
    options.onServed?.(served);
    lastSynced = syncedStateOf(root, served);
    lastGood = new Map(served.map((fn) => [fn.name, fn]));
    const eventsProblem = eventsProblemOf(root);
    if (eventsProblem) return fail(`${eventsProblem}\nNothing is synced until this is fixed.`);
    lastProblem = '';
    const { synced, note: leftOut } = leaveOutUnwritten(served);
    if (leftOut && (!quiet || leftOut !== lastLeftOut)) warn(leftOut);
    lastLeftOut = leftOut;
    const where = accounts.length > 1 ? `${accounts.length} local accounts` : "the local platform's account";
    if (!quiet) say(`syncing ${synced.length} function(s) to ${where}…`);
    const exitCode = await registerQuietly(options, synced, quiet);
    if (exitCode !== 0) fail(`sync ended with exit code ${exitCode}.`);
  };

  const checkDrift = async () => {
    if (!current || !('served' in current) || closed) return;
    // A function left out for its placeholder description is not one the platform lacks (drafts.ts).
    const lines = await accountsDrift(accounts, leaveOutUnwritten(withKept(current.served)).synced, origin, secret);
    if (lines.length === 0) return;
    for (const line of lines) warn(`${line}; syncing again.`);
    await syncNow(current.served, true);
  };

  const reload = async () => {
    await reportBuilds();
    // A change of a handler only leaves the manifest as it was: a few looks, then nothing to sync.
    await sleep(reloadWaitMs);
    for (let i = 0; i < reloadLooks && !closed; i++) {
      const next = await manifest();
      if (next) current = next;
      if (next && 'error' in next) return showProblem(next);
      if (next && syncedStateOf(root, withKept(next.served)) !== lastSynced) {
        await syncNow(next.served, true);
        break;
      }
      await sleep(reloadWaitMs);
    }
    await checkDrift();
  };

  const onChange = debounced(reload, debounceMs, (error) => fail(`after that change: ${error.message.split('\n')[0]}`));

  return {
    current: () => current,
    reportBuilds,
    waitForWorker: async () => {
      for (let i = 0; i < startLooks && !closed && !current; i++) {
        current = await manifest();
        if (!current) await sleep(startPollMs);
      }
      return current;
    },
    syncCurrent: async () => {
      if (!current) return;
      if ('served' in current) await syncNow(current.served);
      else showProblem(current);
    },
    reload,
    checkDrift,
    onChange,
    close: () => {
      closed = true;
      onChange.cancel();
    },
  };
};
