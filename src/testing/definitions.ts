// The checks every function of a project must pass before it can be synced: one `describe` per
// function, so a broken new file fails `npm test` by name.
import { describe, expect, it } from 'vitest';
import { checkApproval } from '../approval/check.ts';
import { checkedPolicy } from '../conversations/check.ts';
import type { AnyFunctionDefinition } from '../define.ts';
import { FUNCTION_NAME, PARAMETER_TYPES } from '../platform/protocol/function.ts';
import {
  DESCRIPTION_LIMIT,
  describeFunction,
  describeParameters,
  PLACEHOLDER_DESCRIPTION,
} from '../schema/describe.ts';

/**
 * Declares the tests that each definition translates into what the platform accepts.
 * @example testDefinitions(functions) // functions from generated/functions.ts
 */
export const testDefinitions = (functions: Record<string, AnyFunctionDefinition>): void => {
  describe.each(Object.entries(functions))('functions/%s.ts', (name, definition) => {
    it('has a platform-safe snake_case name', () => {
      expect(name).toMatch(FUNCTION_NAME);
    });

    it('is a definition with a description, an object schema and a handler', () => {
      expect(typeof definition.description).toBe('string');
      expect(definition.parameters.def.type).toBe('object');
      expect(typeof definition.handler).toBe('function');
      if (definition.timeoutMs !== undefined) expect(definition.timeoutMs).toBeGreaterThan(0);
    });

    it("has its own description, not the scaffold's placeholder", () => {
      expect(definition.description, 'write what the function does and when to call it').not.toContain(
        PLACEHOLDER_DESCRIPTION,
      );
    });

    it('translates into what the platform accepts', () => {
      const manifest = describeFunction(name, definition);
      expect(manifest.name).toBe(name);
      for (const type of Object.values(manifest.parameters)) expect(PARAMETER_TYPES).toContain(type);
      expect(manifest.description.startsWith(definition.description.trim())).toBe(true);
    });

    it(`keeps its description, parameter list included, under ${DESCRIPTION_LIMIT} characters`, () => {
      const { description } = describeFunction(name, definition);
      expect(description.length, 'shorten the description or the .describe() texts').toBeLessThan(DESCRIPTION_LIMIT);
    });

    it('says consistently what it does in a conversation (effect, dedupe, later, approval)', () => {
      const names = describeParameters(name, definition.parameters).map((info) => info.name);
      const { approval, ...rest } = definition;
      expect(() => checkedPolicy(rest, names)).not.toThrow();
      if (approval) expect(() => checkApproval(definition, checkedPolicy(rest, names).effect)).not.toThrow();
    });

    it('describes every parameter for the model', () => {
      for (const info of describeParameters(name, definition.parameters)) {
        expect(info.description, `parameter "${info.name}" needs .describe()`).toBeTruthy();
      }
    });
  });
};
