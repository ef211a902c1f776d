// Every file in functions/ (through the generated registry): a broken new function fails here,
// before it can be synced.
import { describe, expect, it } from 'vitest';
import { functions } from '../../../generated/functions.ts';
import { PLACEHOLDER_DESCRIPTION } from '../../../scripts/new/templates.ts';
import { DESCRIPTION_LIMIT, describeFunction, describeParameters } from '../../../src/describe.ts';
import { FUNCTION_NAME } from '../../../src/platform/function.ts';

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
    for (const type of Object.values(manifest.parameters)) {
      expect(['string', 'number', 'boolean', 'array', 'object']).toContain(type);
    }
    expect(manifest.description.startsWith(definition.description.trim())).toBe(true);
  });

  it(`keeps its description, parameter list included, under ${DESCRIPTION_LIMIT} characters`, () => {
    const { description } = describeFunction(name, definition);
    expect(description.length, 'shorten the description or the .describe() texts').toBeLessThan(DESCRIPTION_LIMIT);
  });

  it('describes every parameter for the model', () => {
    for (const info of describeParameters(name, definition.parameters)) {
      expect(info.description, `parameter "${info.name}" needs .describe()`).toBeTruthy();
    }
  });
});
