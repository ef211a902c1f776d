// A function that declares secrets or vars (define.ts) runs only when each is set on the Worker:
// otherwise its call answers 503 not_configured, and the log names what is missing (never the
// caller: a setting's name is the author's business). Checked on each call of a function that
// declares any (a look-up per setting); the common path reads one field.
import { type Env, EXPLAINS } from './env.ts';
import { notConfigured } from './errors.ts';
import type { Logger } from './log.ts';
import type { RegisteredFunction } from './registry.ts';

/**
 * Throws the 503 of a function whose declared secret or var is unset (or empty, as .dev.vars leaves
 * it); logs which, and how to set it.
 * @example checkConfigured(fn, env, log) // before the handler runs
 */
export const checkConfigured = (fn: RegisteredFunction, env: Env, log: Logger): void => {
  const values = env as unknown as Record<string, unknown>;
  const missing = [...fn.manifest.secrets, ...fn.manifest.vars].filter(
    (name) => values[name] === undefined || values[name] === '',
  );
  if (missing.length === 0) return;
  log.error('setting_missing', {
    function: fn.name,
    missing: missing.join(', '),
    hint: EXPLAINS
      ? `set it in .dev.vars under npm run dev (npm run secrets -- check --local), or on the Worker: npm run secrets -- put`
      : `npm run secrets -- put`,
  });
  throw notConfigured('a setting of this function');
};
