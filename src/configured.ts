// A function that declares secrets or vars (define.ts) runs only when each is set on the Worker:
// otherwise its call answers 503 not_configured, and the log names what is missing (never the
// caller: a setting's name is the author's business). Checked once per isolate, environment and
// function, and only for functions that declare any: the common path reads one field.
import type { Env } from './env.ts';
import { notConfigured } from './errors.ts';
import type { Logger } from './log.ts';
import type { RegisteredFunction } from './registry.ts';

// The functions found fully configured, per environment object (one per isolate in production).
const configured = new WeakMap<object, WeakSet<RegisteredFunction>>();

/** The declared settings of `fn` that `env` lacks (unset or empty, as .dev.vars leaves them). */
const missingSettings = (fn: RegisteredFunction, env: Env): string[] => {
  const { secrets = [], vars = [] } = fn.definition;
  const values = env as unknown as Record<string, unknown>;
  return [...secrets, ...vars].filter((name) => values[name] === undefined || values[name] === '');
};

/**
 * Throws the 503 of a function whose declared secret or var is unset; logs which, and how to set it.
 * @example checkConfigured(fn, env, log) // before the handler runs
 */
export const checkConfigured = (fn: RegisteredFunction, env: Env, log: Logger): void => {
  const known = configured.get(env);
  if (known?.has(fn)) return;
  const missing = missingSettings(fn, env);
  if (missing.length === 0) {
    if (known) known.add(fn);
    else configured.set(env, new WeakSet([fn]));
    return;
  }
  log.error('setting_missing', {
    function: fn.name,
    missing: missing.join(', '),
    hint: 'set it in .dev.vars under npm run dev (npm run secrets -- check --local), or on the Worker: npm run secrets -- put',
  });
  throw notConfigured('a setting of this function');
};
