// vitest's globalSetup for a project's tests (its vitest.config.ts names
// `agent-functions-cli/vitest-setup`): the registries in generated/ are rewritten from functions/
// and events/ before any test file loads, so `npx vitest run --project project
// test/functions/<name>.test.ts` sees a function made a moment ago and never imports a deleted one.
// And a green run reads clean: workerd logs every error a Workflow step throws as an "uncaught
// exception" even when the framework handles it (a deferred call's refusal, turned into the
// author's failure message; a follow-up the platform refused, retried, then logged as
// follow_up_failed). Those entries are left out; every other line still prints.
import { generate } from './project/generated.ts';
import { projectRoot } from './project/paths.ts';

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

// The framework's refusal, and the platform client's clear refusal of a follow-up: both handled.
const HANDLED = [
  /^uncaught exception; source = Uncaught \(in promise\); stack = (Error: )?FunctionError: /,
  /^uncaught exception; source = Uncaught \(in promise\); stack = (Error: )?ValidationError: POST \/v1\/messages answered 4\d\d/,
];

/**
 * workerd's output without the log entries of step errors the framework handles.
 * @example withoutHandled('uncaught exception; ... stack = FunctionError: ...\n    at ...\n') // ''
 */
export const withoutHandled = (text: string): string =>
  text
    .split(/(?=^uncaught exception;)/m)
    .filter((entry) => !HANDLED.some((pattern) => pattern.test(entry)))
    .join('');

const quiet = (stream: { write: Write }) => {
  const write = stream.write;
  stream.write = function (this: unknown, chunk, ...rest) {
    const text = typeof chunk === 'string' ? chunk : String(chunk);
    if (!text.includes('uncaught exception;')) return write.call(this, chunk, ...rest);
    const kept = withoutHandled(text);
    return kept === '' || write.call(this, kept, ...rest.filter((arg) => typeof arg === 'function'));
  };
  return () => {
    stream.write = write;
  };
};

/** Rewrites generated/ for the project vitest runs in, and quiets the handled step errors until the run ends. */
export default function setup(): () => void {
  generate(projectRoot());
  const streams = [process.stderr, process.stdout] as unknown as Array<{ write: Write }>;
  const restore = streams.map(quiet);
  return () => {
    for (const undo of restore) undo();
  };
}
