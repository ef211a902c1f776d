// The functions as MCP tools: listed from the same manifest sync registers, and each outcome of
// the shared pipeline as a tool result.
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { RegisteredFunction } from '../registry.ts';
import type { Outcome } from '../settle.ts';

/**
 * One function as `tools/list` shows it: its name, enriched description, JSON Schema and hints,
 * `readOnlyHint` always said (from its effect when the author gave no hint).
 */
export const toolOf = ({ manifest, definition }: RegisteredFunction): Tool => ({
  name: manifest.name,
  description: manifest.description,
  inputSchema: manifest.jsonSchema as Tool['inputSchema'],
  annotations: { readOnlyHint: definition.effect === 'read', ...manifest.annotations },
});

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A call's outcome as a tool result: the JSON text of the result (and the object itself as
 * structured content), or `isError` with the model-readable message of the refusal.
 * @example toolResult({ ok: false, error }) // { isError: true, content: [{ type: 'text', text: error.message }] }
 */
export const toolResult = (outcome: Outcome): CallToolResult => {
  if (!outcome.ok) return { isError: true, content: [{ type: 'text', text: outcome.error.message }] };
  const text = JSON.stringify(outcome.value ?? null);
  // Through JSON, as the HTTP answer goes: a Date becomes its ISO string in both.
  const json: unknown = JSON.parse(text);
  return { content: [{ type: 'text', text }], ...(isPlainObject(json) ? { structuredContent: json } : {}) };
};
