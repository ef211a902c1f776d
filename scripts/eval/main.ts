// `npm run eval`: asks a real model (an OpenAI-compatible chat-completions endpoint from the
// environment) each golden prompt k times, with every function as a tool, and reports pass^k per
// function. Never part of npm test: it costs money and a model is not deterministic.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, parseEnv } from 'node:util';
import type { LintSource } from '../lint/functions.ts';
import { loadPrompts, servedFunctions } from '../lint/load.ts';
import type { GoldenCall } from '../lint/types.ts';
import { projectRoot } from '../project/paths.ts';
import { askModel, type ModelChoice, type ModelConfig, toolsOf } from './model.ts';
import { calledAsExpected, type FunctionScore, type PromptResult, scoreOf } from './passk.ts';

export const USAGE = `Usage: npm run eval -- [--k N] [--only NAME]... [--min SHARE] [--json]

Asks a model each golden prompt of test/functions/*.prompts.ts k times (default 3), with every
function as a tool (the registered description and the JSON Schema of its arguments), and
reports per function pass^k (the share of prompts whose every trial passed) and pass@1.
A prompt under "calls" passes when the model calls the function first with the expected
arguments; one under "not" passes when the model does not call it.

Environment (also read from .env at the project's root, as npm run sync reads it; a variable
already set wins):
  EVAL_MODEL_URL   the chat-completions url, e.g. https://api.openai.com/v1/chat/completions
  EVAL_MODEL_KEY   its API key (sent as a bearer token; never printed)
  EVAL_MODEL       the model's name, e.g. gpt-4.1-mini

Options:
  --k N          trials per prompt (1 to 20, default 3)
  --only NAME    only this function's prompts (repeatable); every function is still a tool
  --min SHARE    exit 1 when a function's pass^k is below SHARE (0 to 1, default 0)
  --json         the scores as JSON
  -h, --help     this text

Exit codes: 0 done, 1 a function under --min, 2 bad usage or no model configured.`;

/** A prompt's k trials against the model; the first failure is kept to show. */
const trial = async (
  config: ModelConfig,
  tools: ReturnType<typeof toolsOf>,
  name: string,
  k: number,
  prompt: GoldenCall,
  kind: 'call' | 'not',
): Promise<PromptResult> => {
  let passed = 0;
  let failure: ModelChoice | undefined;
  for (let i = 0; i < k; i++) {
    const choice = await askModel(config, tools, prompt);
    const ok = kind === 'call' ? calledAsExpected(name, prompt.args, choice) : choice.name !== name;
    if (ok) passed++;
    else failure ??= choice;
  }
  return { say: prompt.say, kind, passed, trials: k, ...(failure ? { failure } : {}) };
};

/** At most `limit` promises at a time, results in order. */
const pooled = async <T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> => {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await (jobs[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
};

const line = (s: FunctionScore) =>
  `${s.name.padEnd(28)} pass^k ${s.passK.toFixed(2)}  pass@1 ${s.pass1.toFixed(2)}  (${s.prompts.length} prompts)${s.prompts
    .filter((p) => p.passed < p.trials)
    .map(
      (p) =>
        `\n    ${p.kind === 'not' ? 'should not call' : 'should call'}: "${p.say}" passed ${p.passed}/${p.trials}; the model ${p.failure?.name ? `called ${p.failure.name} ${JSON.stringify(p.failure.args)}` : 'called nothing'}`,
    )
    .join('')}`;

/** The CLI: returns the exit code. */
export const main = async (
  argv: string[],
  io: {
    out?: NodeJS.WritableStream;
    err?: NodeJS.WritableStream;
    env?: NodeJS.ProcessEnv;
    source?: LintSource;
    root?: string;
  } = {},
): Promise<number> => {
  const { out = process.stdout, err = process.stderr } = io;
  const root = io.root ?? projectRoot();
  // Like sync: the settings may sit in .env at the project's root; the environment wins over it.
  const dotenv = join(root, '.env');
  const env =
    io.env ?? (existsSync(dotenv) ? { ...parseEnv(readFileSync(dotenv, 'utf8')), ...process.env } : process.env);
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      k: { type: 'string', default: '3' },
      only: { type: 'string', multiple: true },
      min: { type: 'string', default: '0' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out.write(`${USAGE}\n`);
    return 0;
  }
  const k = Number(values.k);
  const min = Number(values.min);
  if (!Number.isInteger(k) || k < 1 || k > 20 || !(min >= 0 && min <= 1)) {
    err.write(`--k takes a whole number from 1 to 20 and --min a share from 0 to 1.\n\n${USAGE}\n`);
    return 2;
  }
  const url = env.EVAL_MODEL_URL;
  const model = env.EVAL_MODEL;
  if (!url || !model || !/^https?:\/\//.test(url)) {
    err.write(
      'Set EVAL_MODEL_URL (an OpenAI-compatible chat-completions url), EVAL_MODEL_KEY and EVAL_MODEL to run the eval.\n',
    );
    return 2;
  }
  const config: ModelConfig = { url, model, ...(env.EVAL_MODEL_KEY ? { key: env.EVAL_MODEL_KEY } : {}) };
  const source = io.source ?? { functions: servedFunctions, prompts: loadPrompts };
  const [functions, prompts] = await Promise.all([source.functions(root), source.prompts(root)]);
  const tools = toolsOf(functions);
  const names = functions
    .map((fn) => fn.name)
    .filter((name) => prompts[name] && (!values.only || values.only.includes(name)));
  // One pool for every prompt of every function, so a large project never floods the model's API.
  const jobs = names.flatMap((name) => {
    const set = prompts[name] ?? { calls: [] };
    return [
      ...set.calls.map((call) => async () => ({ name, result: await trial(config, tools, name, k, call, 'call') })),
      ...(set.not ?? []).map((say) => async () => ({
        name,
        result: await trial(config, tools, name, k, { say }, 'not'),
      })),
    ];
  });
  const results = await pooled(jobs, 4);
  const scores = names.map((name) =>
    scoreOf(
      name,
      results.filter((r) => r.name === name).map((r) => r.result),
    ),
  );
  if (values.json) out.write(`${JSON.stringify({ model, k, functions: scores }, null, 2)}\n`);
  else out.write(`${model}, k = ${k}:\n${scores.map(line).join('\n')}\n`);
  return scores.some((s) => s.passK < min) ? 1 : 0;
};
