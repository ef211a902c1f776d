// What one `npm run dev` holds while it runs: every part it started (services, sync loop, Worker,
// console, watchers, cron ticks) and the one way to end them all, stop(), which exits the process.
import type { ChildProcess } from 'node:child_process';
import type { FSWatcher } from 'chokidar';
import { endGroup } from './children.ts';
import type { RunningConsole } from './console/server.ts';
import type { ConsoleBackend } from './consoleBackend.ts';
import type { CronTicks } from './cronTicks.ts';
import type { DevServices } from './services.ts';
import type { SyncLoop } from './syncLoop.ts';

export interface DevSession {
  services?: DevServices;
  loop?: SyncLoop;
  consoleServer?: RunningConsole;
  /** The current wrangler dev child (a restart replaces it). */
  worker?: ChildProcess | undefined;
  watcher?: FSWatcher;
  restartWatcher?: FSWatcher;
  accountsWatcher?: FSWatcher;
  consoleBackend?: ConsoleBackend;
  ticks?: CronTicks;
  stopping: boolean;
  /** Ends everything started, once, then exits with `code`. */
  stop(code?: number): Promise<void>;
}

/** A session with nothing started yet; Ctrl-C, SIGTERM and SIGHUP stop it, and so does any error dev itself throws (one line). */
export const createSession = (fail: (text: string) => void): DevSession => {
  const session: DevSession = {
    stopping: false,
    stop: async (code = 0) => {
      if (session.stopping) return;
      session.stopping = true;
      session.loop?.close();
      session.ticks?.close();
      await Promise.allSettled([
        session.watcher?.close(),
        session.restartWatcher?.close(),
        session.accountsWatcher?.close(),
        endGroup(session.worker),
        session.services?.close(),
        session.consoleServer?.close(),
      ]);
      process.exit(code);
    },
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void session.stop());
  // Whatever goes wrong in dev itself is one line, and nothing it started is left running.
  const crash = (error: unknown) => {
    fail(`dev stopped on an unexpected error: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
    void session.stop(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  return session;
};
