// `npm run dev`: the whole loop on a laptop, no account needed. The local platform (8788, or a free
// port), the project's own stand-ins (dev.config.ts), the Worker under wrangler dev (8787,
// development mode) wired to them, the console, and a sync of every function (and the events
// webhook) to each account of platform.accounts.json on the local platform (scripts/local/accounts.ts)
// on start and whenever functions/, events/ or lib/ changes, then a check that the platform holds
// what the Worker serves. This file reads the flags and wires the parts, in the order they start:
// services.ts, syncLoop.ts, wranglerDev.ts, consoleBackend.ts, watchSources.ts; session.ts holds
// what it started and stops it.
// `npm run dev -- --help` for the flags.
import { setTimeout as sleep } from 'node:timers/promises';
import { styleText } from 'node:util';
import { accountsLine } from '../local/platform.ts';
import { projectRoot } from '../project/paths.ts';
import { checkedAccounts, createAccountsReload, watchAccountsFiles } from './accountsFile.ts';
import { DEV_HELP, parseDevArgs } from './args.ts';
import { endGroup } from './children.ts';
import { startConsole } from './console/server.ts';
import { createConsoleBackend } from './consoleBackend.ts';
import { projectCrons, startCronTicks } from './cronTicks.ts';
import { networkExposure } from './exposure.ts';
import { howToCall } from './howToCall.ts';
import { chooseWorkerPort, hostsOf } from './ports.ts';
import { createRecordStore, recordOf } from './records.ts';
import { watchReadAtStart } from './restartNotice.ts';
import { type DevServices, startServices } from './services.ts';
import { createSession, type DevSession } from './session.ts';
import { settingsCheck } from './settingsCheck.ts';
import { createSyncLoop, type SyncLoop } from './syncLoop.ts';
import { watchSources } from './watchSources.ts';
import { createWorkerLog } from './workerLog.ts';
import { workerManifest } from './workerManifest.ts';
import { startWranglerDev } from './wranglerDev.ts';

type Say = (text: string) => void;
type DevArgs = ReturnType<typeof parseDevArgs>;

/** The flags, or the process ended: a bad flag exits 2, --help prints the help and exits 0. */
const argsOrExit = (argv: string[], fail: Say): DevArgs => {
  let args: DevArgs;
  try {
    args = parseDevArgs(argv);
  } catch (error) {
    fail(`${(error as Error).message} See npm run dev -- --help.`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(DEV_HELP);
    process.exit(0);
  }
  return args;
};

/**
 * The Worker's port, before anything starts: a --port that is taken is refused, a taken default
 * replaced by a free port that wrangler is then given. Its origin and wrangler's flags with it.
 */
const workerAddress = async (args: DevArgs, warn: Say) => {
  const host = args.ip === '0.0.0.0' || args.ip === '::' ? '127.0.0.1' : args.ip;
  const chosen = await chooseWorkerPort(
    args.portGiven ? args.port : undefined,
    hostsOf(args.ipGiven ? args.ip : undefined),
  );
  if (chosen.note) warn(chosen.note);
  const { port } = chosen;
  const wranglerArgs = args.portGiven && args.port !== 0 ? args.wrangler : [...args.wrangler, '--port', String(port)];
  return { origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, wranglerArgs };
};

/** Starts wrangler dev with `vars` as the session's Worker; its failing to start, or stopping by itself, stops dev. */
const workerStarter =
  (session: DevSession, root: string, args: string[], workerLog: ReturnType<typeof createWorkerLog>, fail: Say) =>
  (vars: Record<string, string>) => {
    const child = startWranglerDev({ root, vars, args, workerLog });
    session.worker = child;
    child.on('error', (error) => {
      fail(`wrangler dev could not start: ${error.message}`);
      void session.stop(1);
    });
    // A restart (accountsFile.ts) ends the child it replaces: only the current one stops dev.
    child.on('exit', (code, signal) => {
      if (!session.stopping && child === session.worker) {
        fail(`wrangler dev stopped (${code === null ? signal : `exit ${code}`}); dev stops too.`);
        void session.stop(code || 1);
      }
    });
  };

/** What the parts started after the Worker share. */
interface Started {
  root: string;
  origin: string;
  secret: DevServices['secret'];
  accounts: DevServices['platform']['accounts'];
  manifest: ReturnType<typeof workerManifest>;
  loop: SyncLoop;
}

/**
 * Once the Worker answered: the source watchers (before the ready line, so a save right after it is
 * a change like any other), the console, the first sync, and how to call each function.
 */
const openConsole = async (
  session: DevSession,
  started: Started,
  first: { full: Parameters<typeof howToCall>[0]['functions'] } | object,
  extra: {
    args: DevArgs;
    settings: DevServices['settings'];
    workerLog: ReturnType<typeof createWorkerLog>;
    records: ReturnType<typeof createRecordStore>;
    warn: Say;
  },
) => {
  const { root, origin, secret, accounts, manifest, loop } = started;
  const { warn } = extra;
  session.watcher = watchSources(root, () => void session.loop?.onChange(), warn);
  session.restartWatcher = watchReadAtStart(root, warn);
  await Promise.all(
    [session.watcher, session.restartWatcher].map(
      (w) => w && new Promise<void>((ready) => w.once('ready', () => ready())),
    ),
  );
  const backend = createConsoleBackend({ accounts, origin, secret, root, manifest, current: loop.current });
  session.consoleBackend = backend;
  const consoleServer = await startConsole({
    port: extra.args.consolePort ?? 8789,
    ...backend,
    workerLog: extra.workerLog.lines,
    records: extra.records.records,
  });
  session.consoleServer = consoleServer;
  if (consoleServer.note) warn(consoleServer.note);
  // npm run platform -- call asks the console whether an answer was a repeat (platform/repeat.ts),
  // npm run stats for its figures.
  session.services?.publish(consoleServer.url);
  await loop.syncCurrent();
  const functions = 'full' in first ? first.full : [];
  for (const line of await howToCall({
    origin,
    secret: extra.settings.secret,
    consoleUrl: consoleServer.url,
    functions,
    accounts: accounts.map((a) => a.name),
  })) {
    console.log(line.startsWith('[') ? styleText('cyan', line) : line);
  }
};

/** A change of the accounts files restarts the Worker with the new accounts' settings and syncs again. */
const watchAccounts = (
  session: DevSession,
  started: Started,
  startWorker: (vars: Record<string, string>) => void,
  say: Say,
  warn: Say,
  fail: Say,
) => {
  const { root, manifest } = started;
  const reloadAccounts = createAccountsReload({
    root,
    services: session.services as DevServices,
    restartWorker: async (vars) => {
      const replaced = session.worker;
      session.worker = undefined;
      await endGroup(replaced);
      if (!session.stopping) startWorker(vars);
    },
    workerAnswers: async () => {
      for (let i = 0; i < 240 && !session.stopping; i++) {
        if (await manifest()) return true;
        await sleep(500);
      }
      return false;
    },
    sync: async () => {
      session.consoleBackend?.refreshAccounts();
      await session.loop?.syncCurrent();
    },
    say,
    fail,
  });
  session.accountsWatcher = watchAccountsFiles(root, () => void reloadAccounts(), warn);
};

/** The local platform and the project's stand-ins, or dev stopped: what they said is printed. */
const startPlatform = async (session: DevSession, root: string, args: DevArgs, say: Say, warn: Say, fail: Say) => {
  try {
    // The accounts files as a build checks them (each account's settings too), named in a line.
    await checkedAccounts(root);
    session.services = await startServices(root, args.platformPort);
  } catch (error) {
    fail((error as Error).message);
    await session.stop(1);
  }
  const { platform, settings, secret } = session.services as DevServices;
  if (platform.note) warn(platform.note);
  say(`local platform on ${platform.emulator.url} ${accountsLine(platform.accounts)}`);
  for (const note of settings.notes) warn(note);
  const exposure = networkExposure(args.ip, settings.secret !== undefined);
  if (exposure) warn(exposure);
  if (settings.problems.length > 0) {
    for (const problem of settings.problems) fail(problem);
    await session.stop(1);
  }
  return { platform, settings, secret };
};

/** `agent-functions dev`: runs until Ctrl-C (or a fatal problem), which ends the process. */
export const main = async (argv: string[]): Promise<number> => {
  const say = (text: string) => console.log(styleText('cyan', `[dev] ${text}`));
  const warn = (text: string) => console.error(styleText('yellow', `[dev] ${text}`));
  const fail = (text: string) => console.error(styleText('red', `[dev] ${text}`));
  const args = argsOrExit(argv, fail);
  const root = projectRoot();
  const session = createSession(fail);

  let address: Awaited<ReturnType<typeof workerAddress>>;
  try {
    address = await workerAddress(args, warn);
  } catch (error) {
    fail((error as Error).message);
    return session.stop(1).then(() => 1);
  }
  const { origin, wranglerArgs } = address;
  const { platform, settings, secret } = await startPlatform(session, root, args, say, warn, fail);

  const { accounts } = platform;
  const manifest = workerManifest(origin);
  // A declared secret or var the local Worker lacks, said before its call answers 503 (settingsCheck.ts).
  const onServed = settingsCheck({ root, supplied: Object.keys(settings.vars), warn, say });
  const loop = createSyncLoop({ accounts, origin, secret, root, manifest, say, warn, fail, onServed });
  session.loop = loop;
  await loop.reportBuilds();

  // The figures' records (npm run stats, the console's health view) beside the activity's short log.
  const records = createRecordStore();
  const workerLog = createWorkerLog(undefined, (fields, at) => {
    const record = recordOf(fields);
    if (record) records.add(record, at);
  });
  // The cron (the alerts' evaluation) runs as deployed: wrangler's scheduled path, called every minute below.
  const crons = projectCrons(root);
  const devArgs = crons.length > 0 ? [...wranglerArgs, '--test-scheduled'] : wranglerArgs;
  const startWorker = workerStarter(session, root, devArgs, workerLog, fail);
  startWorker(settings.vars);

  const started: Started = { root, origin, secret, accounts, manifest, loop };
  // First sync once the Worker answers.
  const first = await loop.waitForWorker();
  if (!first) {
    fail('the Worker did not answer within 2 minutes.');
    await session.stop(1);
  } else {
    await openConsole(session, started, first, { args, settings, workerLog, records, warn });
  }

  if (!session.stopping) {
    if (crons[0]) session.ticks = startCronTicks({ origin, cron: crons[0], warn });
    watchAccounts(session, started, startWorker, say, warn, fail);
  }
  // Dev ends by stop(), which exits the process.
  return new Promise<number>(() => {});
};
