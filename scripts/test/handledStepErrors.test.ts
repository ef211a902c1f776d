import { describe, expect, it } from 'vitest';
import { withoutHandled } from '../local/handledStepErrors.ts';

const entry = (stack: string) =>
  `uncaught exception; source = Uncaught (in promise); stack = ${stack}\n    at step (file:///w.js:1:1)\n`;

describe("the project tests' output", () => {
  it('leaves out the step errors the framework handles: a refusal, and a follow-up the platform refused', () => {
    const text = [
      entry('FunctionError: The order system could not be reached just now.'),
      entry('Error: FunctionError: The order system could not be reached just now.'),
      entry('ValidationError: POST /v1/messages answered 422: contactId "ct_nobody" is not a contact'),
    ].join('');
    expect(withoutHandled(text)).toBe('');
  });

  it('keeps every other error, and every other line', () => {
    const crash = entry('TypeError: Cannot read properties of undefined');
    const refusedElsewhere = entry('ValidationError: POST /v1/contacts answered 422');
    expect(withoutHandled(`a test line\n${crash}${refusedElsewhere}`)).toBe(`a test line\n${crash}${refusedElsewhere}`);
  });
});
