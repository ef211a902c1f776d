// `npm run dev`'s own flags; every other argument goes to wrangler dev untouched.

export const DEV_HELP = `npm run dev: the whole loop on this machine, no account needed.

Starts the local platform (one account per account of platform.accounts.json), a stand-in for
the shop's order API, the Worker (wrangler dev, in development mode) and the console; syncs every
function to each account, with that account's url, on start and whenever functions/ changes;
prints how to call them. Ctrl-C stops everything.

Usage: npm run dev -- [options] [wrangler dev flags]

Options:
  --platform-port <n>  port of the local platform (default 8788, or a free one when 8788 is taken)
  --console-port <n>   port of the console (default 8789, or a free one when taken)
  -h, --help           this text
Anything else goes to wrangler dev, e.g. --port 9000 (default 8787, or a free one when 8787 is
taken; a --port that is taken is refused), --ip 0.0.0.0, --var NAME:value. wrangler's own keys
([b], [d], [x]) are off: it runs in a process group of its own, which Ctrl-C ends as a whole.

What the local Worker reads:
  .dev.vars            yours (git-ignored): FUNCTIONS_SECRET (then every call needs its key; without
                       it no key is needed) and your functions' own secrets. A value set there wins
                       over dev's local platform (PLATFORM_BASE_URL, PLATFORM_API_KEY) and the
                       stand-ins of your dev.config.ts.
  dev.config.ts        yours: the stand-ins your functions need locally (a store's API, a contact
                       in the local platform) and the settings they give the Worker.
  .env                 not read by the local Worker: it holds npm run sync's settings.
`;

export interface DevArgs {
  help: boolean;
  platformPort: number | undefined;
  consolePort: number | undefined;
  /** wrangler dev's flags, as given. */
  wrangler: string[];
  /** wrangler's --port and --ip, for the urls dev prints. */
  port: number;
  ip: string;
  /** Whether --port was given (else dev may choose a free port when the default is taken). */
  portGiven: boolean;
  /** Whether --ip was given (else wrangler listens on localhost: both loopbacks). */
  ipGiven: boolean;
}

const portOf = (flag: string, value: string | undefined): number => {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${flag} wants a port number, not "${value}".`);
  return port;
};

/**
 * Splits dev's flags from wrangler's.
 * @example parseDevArgs(['--platform-port', '9001', '--port', '9000']) // { platformPort: 9001, port: 9000, wrangler: ['--port', '9000'], ... }
 */
export const parseDevArgs = (argv: string[]): DevArgs => {
  const own: Record<string, string | undefined> = {};
  const wrangler: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name = '', inline] = arg.startsWith('--') ? arg.split(/=(.*)/s) : [arg];
    if (arg === '-h' || arg === '--help') help = true;
    else if (name === '--platform-port' || name === '--console-port') own[name] = inline ?? argv[++i];
    else wrangler.push(arg);
  }
  const wranglerFlag = (name: string): string | undefined => {
    const at = wrangler.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
    if (at === -1) return undefined;
    const arg = wrangler[at] as string;
    return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : wrangler[at + 1];
  };
  const platformPort = own['--platform-port'];
  const consolePort = own['--console-port'];
  return {
    help,
    platformPort: platformPort === undefined ? undefined : portOf('--platform-port', platformPort),
    consolePort: consolePort === undefined ? undefined : portOf('--console-port', consolePort),
    wrangler,
    port: portOf('--port', wranglerFlag('--port') ?? '8787'),
    ip: wranglerFlag('--ip') ?? '127.0.0.1',
    portGiven: wranglerFlag('--port') !== undefined,
    ipGiven: wranglerFlag('--ip') !== undefined,
  };
};
