// What a project's test run leaves out of workerd's output: the "uncaught exception" entries of
// the Workflow step errors the framework handles (a deferred call's refusal, turned into the
// author's failure message; a follow-up the platform refused, retried, then logged as
// follow_up_failed). Every other line still prints. Used by the vitest setup (scripts/vitestSetup.ts).

import { quietUncaught, type Write, withoutUncaught } from 'agent-functions/internal';

// The framework's refusal, and the platform client's clear refusal of a follow-up: both handled.
const HANDLED = [
  /^uncaught exception; source = Uncaught \(in promise\); stack = (Error: )?FunctionError: /,
  /^uncaught exception; source = Uncaught \(in promise\); stack = (Error: )?ValidationError: POST \/v1\/messages answered 4\d\d/,
];

const handled = (entry: string) => HANDLED.some((pattern) => pattern.test(entry));

/**
 * workerd's output without the log entries of step errors the framework handles.
 * @example withoutHandled('uncaught exception; ... stack = FunctionError: ...\n    at ...\n') // ''
 */
export const withoutHandled = (text: string): string => withoutUncaught(text, handled);

/** Filters `stream`'s writes until the returned function puts it back. */
export const quiet = (stream: { write: Write }): (() => void) => quietUncaught(stream, handled);
