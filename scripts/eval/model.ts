// One question to an OpenAI-compatible chat-completions endpoint: the functions as tools, the
// customer's words, and the tool call the model chose (if any). Time- and size-limited.
import type { GoldenCall, LintFunction } from '../lint/types.ts';
import { redactSecret } from '../project/redact.ts';

/** Why a fetch failed, as its system error says it (ECONNREFUSED, ENOTFOUND), else the error's name. */
const reason = (error: unknown): string => {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : error instanceof Error ? error.name : typeof error;
};

/** Where the model is: from EVAL_MODEL_URL, EVAL_MODEL_KEY and EVAL_MODEL. */
export interface ModelConfig {
  url: string;
  key?: string;
  model: string;
  timeoutMs?: number;
  /** Retries of a 429 or 5xx answer (default 2). */
  retries?: number;
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

/** The body as text, refused past MAX_ANSWER bytes without reading the rest. */
const boundedText = async (response: Response): Promise<string> => {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER) {
      await reader.cancel();
      throw new ModelError('The model answered more than 1 MB.');
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
};

/** Waits before retry `attempt` (1, 2): a second, then four. */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 1000 * 4 ** (attempt - 1)));

/** Asks the model once (retrying a 429 or 5xx twice); resolves with its first tool call, or `{}` when it answered in words. */
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
  const body = JSON.stringify({ model: config.model, messages, tools, tool_choice: 'auto' });
  let response: Response | undefined;
  for (let attempt = 0; attempt <= (config.retries ?? 2); attempt++) {
    if (attempt > 0) await pause(attempt);
    try {
      response = await fetch(config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(config.key ? { authorization: `Bearer ${config.key}` } : {}),
        },
        body,
        // A redirect could carry the key to another host.
        redirect: 'error',
        signal: AbortSignal.timeout(config.timeoutMs ?? 60_000),
      });
    } catch (error) {
      throw new ModelError(`The model at ${new URL(config.url).origin} could not be reached (${reason(error)}).`);
    }
    if (response.status !== 429 && response.status < 500) break;
    await response.body?.cancel();
  }
  if (!response) throw new ModelError('The model was not asked.');
  const text = await boundedText(response);
  if (response.status === 401 || response.status === 403) {
    // Nothing of the body: it is about the key, and may echo it in a form no redaction knows.
    throw new ModelError(`The model answered ${response.status}: it refused the key (EVAL_MODEL_KEY).`);
  }
  if (!response.ok) {
    throw new ModelError(`The model answered ${response.status}: ${redactSecret(text, config.key).slice(0, 200)}`);
  }
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
