// Under `npm run dev`, the Worker's cron runs as it does deployed (docs/observability.md "Alerts"):
// wrangler dev never fires a cron by itself, so while the project's wrangler.toml declares one,
// this asks wrangler to every minute: `GET /cdn-cgi/local/scheduled` (wrangler 4), or
// `/__scheduled`, which `--test-scheduled` serves in the wranglers that have it. The same scheduled
// handler then evaluates the alert rules against the local platform.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The crons of wrangler.toml's top-level `[triggers]`, none without one.
 * @example projectCrons('.') // ['* * * * *']
 */
export const projectCrons = (root: string): string[] => {
  const file = join(root, 'wrangler.toml');
  if (!existsSync(file)) return [];
  const triggers = /^\[triggers\][^[]*?^\s*crons\s*=\s*\[([^\]]*)\]/m.exec(readFileSync(file, 'utf8'));
  return [...(triggers?.[1] ?? '').matchAll(/"([^"]+)"|'([^']+)'/g)].map((m) => (m[1] ?? m[2]) as string);
};

/** The running ticks; `close` stops them. */
export interface CronTicks {
  close(): void;
}

/** Where wrangler dev runs the scheduled handler, newest first. */
export const SCHEDULED_PATHS = ['/cdn-cgi/local/scheduled', '/__scheduled'] as const;

/**
 * Calls `GET <origin>/cdn-cgi/local/scheduled?cron=<cron>` (`/__scheduled` where that one is 404)
 * every `intervalMs` (a minute); a failing call is reported once until one succeeds again.
 * @example const ticks = startCronTicks({ origin: 'http://127.0.0.1:8787', cron: '* * * * *', warn })
 */
export const startCronTicks = ({
  origin,
  cron,
  warn,
  intervalMs = 60_000,
}: {
  origin: string;
  cron: string;
  warn: (text: string) => void;
  intervalMs?: number;
}): CronTicks => {
  let failing = false;
  let path = 0;
  const call = async (): Promise<Response> => {
    const url = `${origin}${SCHEDULED_PATHS[path]}?cron=${encodeURIComponent(cron)}`;
    const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    await response.body?.cancel();
    if (response.status !== 404 || path === SCHEDULED_PATHS.length - 1) return response;
    path++;
    return call();
  };
  const tick = async () => {
    let problem: string | undefined;
    try {
      const response = await call();
      if (!response.ok) problem = `answered ${response.status}: see the Worker's log above`;
    } catch (error) {
      problem = (error as Error).message;
    }
    if (problem && !failing) warn(`the cron's run (alerts) failed: ${problem}. It runs again every minute.`);
    failing = problem !== undefined;
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
};
