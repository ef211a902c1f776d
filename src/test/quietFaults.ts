// Global setup of the framework's tests (Node, the vitest process, to which workerd's output is
// piped): drops workerd's logs of what the tests cause on purpose, so a green run shows only the
// summary. Two kinds, each matched exactly; every other line still prints:
// - an error a Workflow step throws is logged as an "uncaught exception" with its stack even when
//   the step's retry handles it: the faults tests throw ExpectedFault (expectedFault.ts), and the
//   Workflows engine re-throws it as an Error whose message opens with its name;
// - introspectWorkflow's dispose() ends the instances a test left (cloudflare:test), and the
//   engines log that they were aborted, never started, or that a wait for an event timed out.
import { quietUncaught, type Write } from '../uncaughtLogs.ts';
import { ExpectedFault } from './expectedFault.ts';

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

/** An entry of an injected fault or of a disposed instance. */
const expected = (entry: string) => EXPECTED.some((mark) => entry.includes(mark));

export default (): (() => void) => {
  const restore = [quietUncaught(process.stderr, expected), quietUncaught(process.stdout, expected)];
  return () => {
    for (const undo of restore) undo();
  };
};
