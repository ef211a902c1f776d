// Under `npm run dev`, the Worker's cron runs as it does deployed (docs/observability.md "Alerts"):
// wrangler dev is started with --test-scheduled, which serves `GET /__scheduled`, and this calls it
// every minute while the project's wrangler.toml declares a cron, so the same scheduled handler
// evaluates the alert rules against the local platform.
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

/**
 * Calls `GET <origin>/__scheduled?cron=<cron>` every `intervalMs` (a minute); a failing call is
 * reported once until one succeeds again.
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
  const url = `${origin}/__scheduled?cron=${encodeURIComponent(cron)}`;
  const tick = async () => {
    let problem: string | undefined;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      await response.body?.cancel();
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
