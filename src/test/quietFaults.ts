// Global setup of the framework's tests (Node, the vitest process, to which workerd's output is
// piped): drops workerd's logs of what the tests cause on purpose, so a green run shows only the
// summary. Two kinds, each matched exactly; every other line still prints:
// - an error a Workflow step throws is logged as an "uncaught exception" with its stack even when
//   the step's retry handles it: the faults tests throw ExpectedFault (expectedFault.ts), and the
//   Workflows engine re-throws it as an Error whose message opens with its name;
// - introspectWorkflow's dispose() ends the instances a test left (cloudflare:test), and the
//   engines log that they were aborted, never started, or that a wait for an event timed out.
import { ExpectedFault } from './expectedFault.ts';

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;
// Node's process and Buffer, typed here because this folder's types are workerd's.
const { process } = globalThis as unknown as { process: { stderr: { write: Write }; stdout: { write: Write } } };

const NAME = ExpectedFault.prototype.name;
const EXPECTED = [
  `stack = ${NAME}: `,
  `stack = Error: ${NAME}: `,
  'jsg.Error: Aborting engine: User called terminate',
  'stack = Error: Engine was never started',
  'stack = Error: instance.not_found',
  // An approval's wait (step.waitForEvent) that a test's dispose() ended before its timeout.
  'stack = WorkflowTimeoutError: Execution timed out',
];

/** workerd's text with the log entries of injected faults and of disposed instances left out. */
export const withoutExpected = (text: string): string =>
  text
    // An entry: its first line, then its stack's lines.
    .split(/(?=^uncaught exception;)/m)
    .filter((entry) => !(entry.startsWith('uncaught exception;') && EXPECTED.some((mark) => entry.includes(mark))))
    .join('');

const quiet = (stream: { write: Write }) => {
  const write = stream.write;
  stream.write = function (this: unknown, chunk, ...rest) {
    const text = typeof chunk === 'string' ? chunk : String(chunk);
    if (!text.includes('uncaught exception;')) return write.call(this, chunk, ...rest);
    const kept = withoutExpected(text);
    return kept === '' || write.call(this, kept, ...rest.filter((arg) => typeof arg === 'function'));
  };
  return () => {
    stream.write = write;
  };
};

export default (): (() => void) => {
  const restore = [quiet(process.stderr), quiet(process.stdout)];
  return () => {
    for (const undo of restore) undo();
  };
};
