// What `npm run dev -- --ip <address>` opens beyond this machine, said before anything starts.

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * The warning for a Worker bound to `ip`, or undefined when only this machine can reach it.
 * `keyed`: .dev.vars sets FUNCTIONS_SECRET, so every call needs its key.
 * @example networkExposure('0.0.0.0', false) // 'The Worker listens on 0.0.0.0: ...'
 */
export const networkExposure = (ip: string, keyed: boolean): string | undefined => {
  if (LOOPBACK.test(ip)) return undefined;
  const reach = ip === '0.0.0.0' || ip === '::' ? 'every network this machine is on' : `the network of ${ip}`;
  const calls = keyed
    ? 'every function, with its key (FUNCTIONS_SECRET is set in .dev.vars)'
    : "every function WITHOUT a key (no FUNCTIONS_SECRET in .dev.vars), with the local platform's settings";
  return `The Worker listens on ${ip}: anyone on ${reach} can call ${calls}. Use it on a network you trust; drop --ip to keep it on this machine.`;
};
