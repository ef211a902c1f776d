// The tools the MCP conformance suite calls by name, written as any project writes functions: the
// framework turns their answers and refusals into MCP results. A test fixture, never deployed.
import { defineFunction, FunctionError } from 'agent-functions';
import { createWorker } from 'agent-functions/worker';
import { z } from 'zod';

export default createWorker({
  functions: {
    test_simple_text: defineFunction({
      description: 'Answers with one line of text. Call it when the conformance suite asks for simple text.',
      parameters: z.object({}),
      handler: () => 'This is a simple text response for testing.',
    }),
    test_error_handling: defineFunction({
      description: 'Always refuses, with a message for the model. Call it when the conformance suite tests errors.',
      parameters: z.object({}),
      handler: () => {
        throw new FunctionError(
          422,
          'always_refuses',
          'This tool always refuses: it tests how errors reach the client.',
        );
      },
    }),
  },
  mcp: () => import('agent-functions/mcp'),
});
