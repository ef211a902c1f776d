// An error a fault test throws on purpose. workerd logs every error a Workflow step throws as an
// "uncaught exception" with its stack, even when the step's retry handles it; the test run drops
// the logs of these (quietFaults.ts), and prints every other error's.

/** The error of an injected fault: its stack opens with "ExpectedFault: ". */
export class ExpectedFault extends Error {
  static {
    // On the prototype, so the stack's first line names it from the moment it is captured.
    ExpectedFault.prototype.name = 'ExpectedFault';
  }
}
