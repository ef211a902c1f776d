// workerd's output with some of its "uncaught exception" entries left out (each entry is its first
// line and its stack's lines): a project's test run drops the step errors the framework handles
// (agent-functions-cli's scripts/local/handledStepErrors.ts), the framework's own the faults its
// tests inject (src/test/quietFaults.ts). Node side: it wraps a stream's write.

/** A stream's write, as Node's are. */
export type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

const ENTRY = 'uncaught exception;';

/**
 * `text` without the "uncaught exception" entries that `drop` matches; every other line is kept.
 * @example withoutUncaught(text, (entry) => entry.includes('stack = ExpectedFault: '))
 */
export const withoutUncaught = (text: string, drop: (entry: string) => boolean): string =>
  text
    .split(/(?=^uncaught exception;)/m)
    .filter((entry) => !(entry.startsWith(ENTRY) && drop(entry)))
    .join('');

/** Leaves the entries `drop` matches out of `stream`'s writes, until the returned function puts its write back. */
export const quietUncaught = (stream: { write: Write }, drop: (entry: string) => boolean): (() => void) => {
  const write = stream.write;
  stream.write = function (this: unknown, chunk, ...rest) {
    const text = typeof chunk === 'string' ? chunk : String(chunk);
    if (!text.includes(ENTRY)) return write.call(this, chunk, ...rest);
    const kept = withoutUncaught(text, drop);
    return kept === '' || write.call(this, kept, ...rest.filter((arg) => typeof arg === 'function'));
  };
  return () => {
    stream.write = write;
  };
};
