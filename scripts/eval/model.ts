// One question to an OpenAI-compatible chat-completions endpoint: the functions as tools, the
// customer's words, and the tool call the model chose (if any). Time- and size-limited.
import type { GoldenCall, LintFunction } from '../lint/functions/types.ts';

/** Where the model is: from EVAL_MODEL_URL, EVAL_MODEL_KEY and EVAL_MODEL. */
export interface ModelConfig {
  url: string;
  key?: string;
  model: string;
  timeoutMs?: number;
}

/** What the model did with one prompt. */
export interface ModelChoice {
  name?: string;
  args?: Record<string, unknown>;
}

const MAX_ANSWER = 1024 * 1024;

/** The system prompt of every trial: a customer-facing agent, nothing about the functions beyond their tools. */
export const SYSTEM_PROMPT =
  'You are the assistant of a business, talking with a customer on a messaging channel. Call a function when one fits what the customer says; otherwise answer in words. Never invent an argument the customer has not given.';

/** The functions as chat-completions tools: the registered description and the JSON Schema of the arguments. */
export const toolsOf = (functions: LintFunction[]) =>
  functions.map((fn) => ({
    type: 'function' as const,
    function: {
      name: fn.name,
      description: fn.description,
      parameters: fn.jsonSchema ?? { type: 'object', properties: {} },
    },
  }));

/** The model's error in a line, never its body whole (it may echo the request). */
export class ModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelError';
  }
}

/** Asks the model once; resolves with the first tool call it made, or `{}` when it answered in words. */
export const askModel = async (
  config: ModelConfig,
  tools: ReturnType<typeof toolsOf>,
  prompt: Pick<GoldenCall, 'say' | 'context'>,
): Promise<ModelChoice> => {
  const messages = [
    {
      role: 'system',
      content: SYSTEM_PROMPT + (prompt.context ? `\n\nEarlier in this conversation: ${prompt.context}` : ''),
    },
    { role: 'user', content: prompt.say },
  ];
  let response: Response;
  try {
    response = await fetch(config.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(config.key ? { authorization: `Bearer ${config.key}` } : {}),
      },
      body: JSON.stringify({ model: config.model, messages, tools, tool_choice: 'auto' }),
      redirect: 'error',
      signal: AbortSignal.timeout(config.timeoutMs ?? 60_000),
    });
  } catch (error) {
    throw new ModelError(`The model at ${new URL(config.url).origin} could not be reached (${(error as Error).name}).`);
  }
  const text = await response.text();
  if (!response.ok) throw new ModelError(`The model answered ${response.status}: ${text.slice(0, 200)}`);
  if (text.length > MAX_ANSWER) throw new ModelError('The model answered more than 1 MB.');
  let call: { function?: { name?: string; arguments?: string } } | undefined;
  try {
    call = (JSON.parse(text) as { choices?: { message?: { tool_calls?: (typeof call)[] } }[] }).choices?.[0]?.message
      ?.tool_calls?.[0];
  } catch {
    throw new ModelError('The model answered with something other than JSON.');
  }
  if (!call?.function?.name) return {};
  let args: Record<string, unknown> = {};
  try {
    args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>;
  } catch {
    // Arguments that are not JSON match no expected argument.
  }
  return { name: call.function.name, args };
};
