// `npm run bench:profile`: a V8 CPU profile of a benchmark Worker on workerd under the same load as
// part 1 of `npm run bench`, summarised as self time per function (unminified build, so names
// survive). Answers "where does the time go" before an optimisation, and shows it moved after.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { functionKey } from 'agent-functions/worker';
import { QUOTE_FUNCTION } from '../workers/quote.ts';
import { buildWorker } from './buildWorker.ts';
import { INVALID_BODY, VALID_BODY } from './invocation.ts';
import { loadTest } from './loadTest.ts';
import { BENCH_SECRET, serveWorker } from './serveWorker.ts';
import { useBenchV8Flags } from './v8Flags.ts';

const HELP = `Usage: npm run --silent bench:profile -- [--entry bench/project.ts] [--invalid] [--seconds 6] [--inspector-port 9229] [--out file.cpuprofile] [--top 30]

Builds the entry unminified, serves it on local workerd with the inspector on, drives it with
autocannon (10 connections) and prints the functions with the most self time, grouped by the file
they come from (src/, zod, the Worker's runtime). --out keeps the raw .cpuprofile
(open it in Chrome DevTools or VS Code).
`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from, judged by the bundle's module comments and the frame's name. */
const origin = (frame: ProfileNode['callFrame']): string => {
  if (frame.functionName.startsWith('(')) return frame.functionName;
  if (!frame.url) return 'runtime (native)';
  return 'bundle';
};

const summarise = (profile: Profile, top: number, source: string, requests: number) => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  let idle = 0;
  const lines = source.split('\n');
  // The bundle keeps esbuild's `// src/worker.ts` comments: the last one above a line names its file.
  const fileOf = (line: number): string => {
    for (let i = Math.min(line, lines.length - 1); i >= 0; i--) {
      const match = /^\/\/ (\S+\.(?:ts|js|mjs|cjs))$/.exec(lines[i] ?? '');
      if (match) return (match[1] as string).replace(/^.*node_modules\//, '');
    }
    return '?';
  };
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    if (!node) return;
    const frame = node.callFrame;
    if (frame.functionName === '(idle)') {
      idle += delta;
      return;
    }
    total += delta;
    const where = origin(frame) === 'bundle' ? fileOf(frame.lineNumber) : origin(frame);
    const key = `${frame.functionName || '(anonymous)'}  [${where}${origin(frame) === 'bundle' ? `:${frame.lineNumber + 1}` : ''}]`;
    self.set(key, (self.get(key) ?? 0) + delta);
  });
  const byFile = new Map<string, number>();
  for (const [key, micros] of self) {
    const file = /\[([^\]:]+)/.exec(key)?.[1] ?? '?';
    byFile.set(file, (byFile.get(file) ?? 0) + micros);
  }
  const pct = (micros: number) =>
    `${((100 * micros) / total).toFixed(1).padStart(5)}% ${(micros / requests).toFixed(1).padStart(6)} us/call`;
  const out = [
    `busy ${(total / 1000).toFixed(0)} ms (${(total / requests).toFixed(1)} us per call), idle ${(idle / 1000).toFixed(0)} ms`,
    '',
    'self time by file:',
  ];
  for (const [file, micros] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top))
    out.push(`${pct(micros)}  ${file}`);
  out.push('', 'self time by function:');
  for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) out.push(`${pct(micros)}  ${key}`);
  return out.join('\n');
};

const main = async (): Promise<number> => {
  const { values } = parseArgs({
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      entry: { type: 'string', default: 'bench/workers/project.ts' },
      invalid: { type: 'boolean', default: false },
      seconds: { type: 'string', default: '6' },
      'inspector-port': { type: 'string', default: '9229' },
      out: { type: 'string' },
      top: { type: 'string', default: '30' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const seconds = Number(values.seconds);
  const inspectorPort = Number(values['inspector-port']);
  const top = Number(values.top);
  if (!(seconds > 0) || !Number.isInteger(inspectorPort) || !(top > 0)) {
    process.stderr.write(`--seconds, --top and --inspector-port take positive numbers\n\n${HELP}`);
    return 2;
  }
  // The same V8 flags as `npm run bench`, so a profile shows the collections the bench measures.
  useBenchV8Flags();
  const dir = await mkdtemp(join(tmpdir(), 'agent-functions-profile-'));
  try {
    const built = await buildWorker(values.entry, { BENCH_FUNCTIONS: '10' }, dir, { minify: false });
    const served = await serveWorker(built.scriptPath, { inspectorPort });
    try {
      const key = await functionKey(BENCH_SECRET, QUOTE_FUNCTION);
      const url = new URL(`/functions/${QUOTE_FUNCTION}?key=${key}`, served.url).href;
      const body = values.invalid ? INVALID_BODY : VALID_BODY;
      const expectStatus = values.invalid ? 422 : 200;
      await loadTest({ url, body, expectStatus }, { connections: 10, seconds: 2 });
      const inspector = await served.inspector();
      await inspector.send('Profiler.enable');
      await inspector.send('Profiler.setSamplingInterval', { interval: 100 });
      await inspector.send('Profiler.start');
      const load = await loadTest({ url, body, expectStatus }, { connections: 10, seconds });
      const { profile } = (await inspector.send('Profiler.stop')) as { profile: Profile };
      inspector.close();
      if (values.out) await writeFile(values.out, JSON.stringify(profile));
      const source = await readFile(built.scriptPath, 'utf8');
      process.stdout.write(
        `${values.entry}, ${values.invalid ? 'invalid' : 'valid'} calls: ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.p50Ms.toFixed(2)} ms\n`,
      );
      process.stdout.write(`${summarise(profile, top, source, load.responses)}\n`);
    } finally {
      await served.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return 0;
};

process.exitCode = await main();
