// `npm run dev`: the whole loop on a laptop, no account needed. The local platform (8788, or a free
// port), the project's own stand-ins (dev.config.ts), the Worker under wrangler dev (8787,
// development mode) wired to them, the console, and a sync of every function (and the events
// webhook) to each account of platform.accounts.json on the local platform (scripts/local/accounts.ts)
// on start and whenever functions/, events/ or lib/ changes, then a check that the platform holds
// what the Worker serves. This file reads the flags and wires the parts, in the order they start:
// services.ts, syncLoop.ts, wranglerDev.ts, consoleBackend.ts, watchSources.ts.
// `npm run dev -- --help` for the flags.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { styleText } from 'node:util';
import type { FSWatcher } from 'chokidar';
import { accountsLine } from '../local/platform.ts';
import { readDevState, writeDevState } from '../project/devState.ts';
import { projectRoot } from '../project/paths.ts';
import { checkedAccounts, createAccountsReload, watchAccountsFiles } from './accountsFile.ts';
import { DEV_HELP, parseDevArgs } from './args.ts';
import { endGroup } from './children.ts';
import { type RunningConsole, startConsole } from './console/server.ts';
import { type ConsoleBackend, createConsoleBackend } from './consoleBackend.ts';
import { type CronTicks, projectCrons, startCronTicks } from './cronTicks.ts';
import { networkExposure } from './exposure.ts';
import { howToCall } from './howToCall.ts';
import { chooseWorkerPort, hostsOf } from './ports.ts';
import { createRecordStore, recordOf } from './records.ts';
import { watchReadAtStart } from './restartNotice.ts';
import { type DevServices, startServices } from './services.ts';
import { settingsCheck } from './settingsCheck.ts';
import { createSyncLoop, type SyncLoop } from './syncLoop.ts';
import { watchSources } from './watchSources.ts';
import { createWorkerLog } from './workerLog.ts';
import { workerManifest } from './workerManifest.ts';
import { startWranglerDev } from './wranglerDev.ts';

/** `agent-functions dev`: runs until Ctrl-C (or a fatal problem), which ends the process. */
export const main = async (argv: string[]): Promise<number> => {
  const say = (text: string) => console.log(styleText('cyan', `[dev] ${text}`));
  const warn = (text: string) => console.error(styleText('yellow', `[dev] ${text}`));
  const fail = (text: string) => console.error(styleText('red', `[dev] ${text}`));

  let args: ReturnType<typeof parseDevArgs>;
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
  const host = args.ip === '0.0.0.0' || args.ip === '::' ? '127.0.0.1' : args.ip;
  const root = projectRoot();

  let services: DevServices | undefined;
  let loop: SyncLoop | undefined;
  let consoleServer: RunningConsole | undefined;
  let worker: ChildProcess | undefined;
  let watcher: FSWatcher | undefined;
  let restartWatcher: FSWatcher | undefined;
  let accountsWatcher: FSWatcher | undefined;
  let consoleBackend: ConsoleBackend | undefined;
  let ticks: CronTicks | undefined;
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    loop?.close();
    ticks?.close();
    await Promise.allSettled([
      watcher?.close(),
      restartWatcher?.close(),
      accountsWatcher?.close(),
      endGroup(worker),
      services?.close(),
      consoleServer?.close(),
    ]);
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop());
  // Whatever goes wrong in dev itself is one line, and nothing it started is left running.
  const crash = (error: unknown) => {
    fail(`dev stopped on an unexpected error: ${String((error as Error)?.message ?? error).split('\n')[0]}`);
    void stop(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);

  // The Worker's port, before anything starts: a --port that is taken is refused, a taken default
  // replaced by a free port that wrangler is then given.
  let port: number;
  try {
    const chosen = await chooseWorkerPort(
      args.portGiven ? args.port : undefined,
      hostsOf(args.ipGiven ? args.ip : undefined),
    );
    port = chosen.port;
    if (chosen.note) warn(chosen.note);
  } catch (error) {
    fail((error as Error).message);
    return stop(1).then(() => 1);
  }
  const wranglerArgs = args.portGiven && args.port !== 0 ? args.wrangler : [...args.wrangler, '--port', String(port)];
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  try {
    // The accounts files as a build checks them (each account's settings too), named in a line.
    await checkedAccounts(root);
    services = await startServices(root, args.platformPort);
  } catch (error) {
    fail((error as Error).message);
    await stop(1);
  }
  const { platform, settings, secret } = services as DevServices;
  if (platform.note) warn(platform.note);
  say(`local platform on ${platform.emulator.url} ${accountsLine(platform.accounts)}`);
  for (const note of settings.notes) warn(note);
  const exposure = networkExposure(args.ip, settings.secret !== undefined);
  if (exposure) warn(exposure);
  if (settings.problems.length > 0) {
    for (const problem of settings.problems) fail(problem);
    await stop(1);
  }

  const { accounts } = platform;
  const manifest = workerManifest(origin);
  // A declared secret or var the local Worker lacks, said before its call answers 503 (settingsCheck.ts).
  const onServed = settingsCheck({ root, supplied: Object.keys(settings.vars), warn, say });
  loop = createSyncLoop({ accounts, origin, secret, root, manifest, say, warn, fail, onServed });
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
  const startWorker = (vars: Record<string, string>) => {
    const child = startWranglerDev({ root, vars, args: devArgs, workerLog });
    worker = child;
    child.on('error', (error) => {
      fail(`wrangler dev could not start: ${error.message}`);
      void stop(1);
    });
    // A restart (accountsFile.ts) ends the child it replaces: only the current one stops dev.
    child.on('exit', (code, signal) => {
      if (!stopping && child === worker) {
        fail(`wrangler dev stopped (${code === null ? signal : `exit ${code}`}); dev stops too.`);
        void stop(code || 1);
      }
    });
  };
  startWorker(settings.vars);

  // First sync once the Worker answers.
  const first = await loop.waitForWorker();
  if (!first) {
    fail('the Worker did not answer within 2 minutes.');
    await stop(1);
  } else {
    // Watching before the ready line: a save right after it is a change like any other.
    watcher = watchSources(root, () => void loop?.onChange(), warn);
    restartWatcher = watchReadAtStart(root, warn);
    await Promise.all(
      [watcher, restartWatcher].map((w) => w && new Promise<void>((ready) => w.once('ready', () => ready()))),
    );
    const backend = createConsoleBackend({ accounts, origin, secret, root, manifest, current: loop.current });
    consoleBackend = backend;
    consoleServer = await startConsole({
      port: args.consolePort ?? 8789,
      ...backend,
      workerLog: workerLog.lines,
      records: records.records,
    });
    if (consoleServer.note) warn(consoleServer.note);
    // npm run platform -- call asks the console whether an answer was a repeat (platform/repeat.ts).
    const state = readDevState(root);
    if (state) writeDevState(root, { ...state, consoleUrl: consoleServer.url });
    await loop.syncCurrent();
    const functions = 'full' in first ? first.full : [];
    for (const line of await howToCall({
      origin,
      secret: settings.secret,
      consoleUrl: consoleServer.url,
      functions,
      accounts: accounts.map((a) => a.name),
    })) {
      console.log(line.startsWith('[') ? styleText('cyan', line) : line);
    }
  }

  if (!stopping) {
    if (crons[0]) ticks = startCronTicks({ origin, cron: crons[0], warn });
    const reloadAccounts = createAccountsReload({
      root,
      services: services as DevServices,
      restartWorker: async (vars) => {
        const replaced = worker;
        worker = undefined;
        await endGroup(replaced);
        if (!stopping) startWorker(vars);
      },
      workerAnswers: async () => {
        for (let i = 0; i < 240 && !stopping; i++) {
          if (await manifest()) return true;
          await sleep(500);
        }
        return false;
      },
      sync: async () => {
        consoleBackend?.refreshAccounts();
        await loop?.syncCurrent();
      },
      say,
      fail,
    });
    accountsWatcher = watchAccountsFiles(root, () => void reloadAccounts(), warn);
  }
  // Dev ends by stop(), which exits the process.
  return new Promise<number>(() => {});
};
