// What every local surface (the Worker under `npm run dev`, the dev console, the local platform)
// checks before it answers: the request names this machine, and no web page on another site sent
// it. Those surfaces hold keys or serve without one, so a page the developer opens could otherwise
// use them: a cross-site form post carries that site's Origin, and DNS rebinding a host name that
// is not this machine. Programs (curl, the platform, sync, the Worker) send no foreign Origin.
// The policy follows well-kept dev servers: this machine by any name, any IP address (an address
// cannot be rebound), and host names the developer allows; origins only of this machine or those
// host names. Pure, so the Worker and the CLI share it (docs/security.md, "Local surfaces").

/** Why a request is refused: `unknown_host` (not this machine's name) or `foreign_origin` (another site). */
export interface LocalSurfaceRefusal {
  code: 'unknown_host' | 'foreign_origin';
  message: string;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

const isLoopbackName = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname === '[::1]' ||
  (IPV4.test(hostname) && hostname.startsWith('127.'));

/** An allowed entry: a name, or `.suffix` for every name under it (as `.trycloudflare.com`). */
const isAllowed = (hostname: string, allowed: readonly string[]): boolean =>
  allowed.some((entry) =>
    entry.startsWith('.') ? hostname.endsWith(entry) || hostname === entry.slice(1) : hostname === entry,
  );

/**
 * The allowed host names of a comma-separated setting, trimmed and lower-cased.
 * @example allowedHostsOf('tunnel.example.net, .trycloudflare.com') // ['tunnel.example.net', '.trycloudflare.com']
 */
export const allowedHostsOf = (setting: string | undefined): string[] =>
  (setting ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);

/**
 * Why a request must not be served by a local surface, or undefined when it may be. `host` is the
 * Host header's value (a Worker reads it from the url, Node from the header); `setting` names where
 * a developer allows more host names, for the message.
 * @example localSurfaceRefusal('evil.example:8787', 'https://evil.example', []) // { code: 'unknown_host', ... }
 */
export const localSurfaceRefusal = (
  host: string | undefined,
  origin: string | null | undefined,
  allowed: readonly string[],
  setting?: string,
): LocalSurfaceRefusal | undefined => {
  const hostname = hostnameOf(host);
  if (
    hostname === undefined ||
    !(isLoopbackName(hostname) || IPV4.test(hostname) || hostname.startsWith('[') || isAllowed(hostname, allowed))
  ) {
    return {
      code: 'unknown_host',
      message: `This local server answers only to this machine's names and addresses, not "${host ?? ''}".${setting ? ` To reach it by that name (a tunnel), add it to ${setting}.` : ''}`,
    };
  }
  if (origin === undefined || origin === null) return undefined;
  const from = origin === 'null' ? undefined : hostnameOf(safeHost(origin));
  if (from !== undefined && (isLoopbackName(from) || isAllowed(from, allowed))) return undefined;
  return {
    code: 'foreign_origin',
    message: `A web page of another site (Origin ${origin}) may not use this local server. Call it from a program (curl, the local platform) or from the console.`,
  };
};

const safeHost = (origin: string): string | undefined => {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
};

/** The host name of a Host value, lower-cased, without its port (IPv6 keeps its brackets). */
const hostnameOf = (host: string | undefined): string | undefined => {
  if (!host) return undefined;
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end > 0 ? lower.slice(0, end + 1) : undefined;
  }
  const [name] = lower.split(':');
  return name || undefined;
};
