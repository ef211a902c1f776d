// What a project's test run leaves out of workerd's output: the "uncaught exception" entries of
// the Workflow step errors the framework handles (a deferred call's refusal, turned into the
// author's failure message; a follow-up the platform refused, retried, then logged as
// follow_up_failed). Every other line still prints. Used by the vitest setup (scripts/vitestSetup.ts).

/** A stream's write, as Node's are. */
export type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

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

/** Filters `stream`'s writes until the returned function puts it back. */
export const quiet = (stream: { write: Write }) => {
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
