import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { type AnyFunctionDefinition, defineFunction, type FunctionContext } from '../../define.ts';
import type { Env } from '../../env.ts';
import { webhookHeaders } from '../../platform/protocol/signature.ts';
import { translateFunction } from '../../schema/describe.ts';
import { withEnv } from '../../testing/call.ts';
import { env, errorOf, keyOf, ORIGIN } from '../helpers.ts';
import { SIGNING_SECRET } from '../security/harness.ts';

let seen: { args: unknown; conversation: FunctionContext['conversation'] } | undefined;

const worker = createWorker({
  conversations: conversationFeatures,
  functions: {
    conv_echo: defineFunction({
      description: 'Says which conversation it was called from, for the tests.',
      parameters: z.object({ note: z.string().optional() }),
      effect: 'read',
      handler: (args, { conversation }) => {
        seen = { args, conversation };
        return { ok: true };
      },
    }),
    conv_channel_param: defineFunction({
      description: 'Declares a parameter named like the platform channel, for the tests.',
      parameters: z.object({ channel: z.string() }),
      effect: 'read',
      handler: (args, { conversation }) => {
        seen = { args, conversation };
        return { ok: true };
      },
    }),
  },
});
const { call } = withEnv(worker, env as Env);

describe('context.conversation', () => {
  it("reads the platform's contactId, conversationId and channel beside the arguments, never as arguments", async () => {
    const response = await call('conv_echo', {
      note: 'hi',
      contactId: 'ct_1',
      conversationId: 'cv_1',
      channel: 'whatsapp',
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual({
      args: { note: 'hi' },
      conversation: { contactId: 'ct_1', conversationId: 'cv_1', channel: 'whatsapp' },
    });
  });

  it('reads them beside an envelope of arguments, and from the query string of a GET', async () => {
    await call('conv_echo', { arguments: { note: 'x' }, contactId: 'ct_2', channel: 'sms' });
    expect(seen).toEqual({ args: { note: 'x' }, conversation: { contactId: 'ct_2', channel: 'sms' } });
    const key = await keyOf('conv_echo');
    const get = await worker.fetch(
      new Request(`${ORIGIN}/functions/conv_echo?key=${key}&note=y&contactId=ct_3&conversationId=cv_3`),
      // A platform that does not sign: no signature could cover a query string.
      { ...(env as Env), PLATFORM_SIGNING_SECRET: undefined },
      { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext,
    );
    expect(get.status).toBe(200);
    expect(seen).toEqual({ args: { note: 'y' }, conversation: { contactId: 'ct_3', conversationId: 'cv_3' } });
  });

  it('is absent when the platform sends no contact, and never guessed from an unreadable one', async () => {
    await call('conv_echo', { note: 'a' });
    expect(seen?.conversation).toBeUndefined();
    await call('conv_echo', { note: 'a', conversationId: 'cv_9', channel: 'whatsapp' });
    expect(seen).toEqual({ args: { note: 'a' }, conversation: undefined });
    await call('conv_echo', { contactId: { $ne: null }, conversationId: 'cv_9' });
    expect(seen?.conversation).toBeUndefined();
    await call('conv_echo', { contactId: 'x'.repeat(300) });
    expect(seen?.conversation).toBeUndefined();
  });

  it('leaves a parameter the function declares under one of the names as its argument', async () => {
    await call('conv_channel_param', { channel: 'telegram', contactId: 'ct_4' });
    expect(seen).toEqual({ args: { channel: 'telegram' }, conversation: { contactId: 'ct_4' } });
  });

  it('refuses a definition whose parameters are named like the conversation ids the model must never fill', () => {
    const definition = defineFunction({
      description: 'Messages whoever the model names, which it must not.',
      parameters: z.object({ contactId: z.string() }),
      handler: () => null,
    });
    expect(() => translateFunction('bad_contact', definition, conversationFeatures.check)).toThrow(
      /contactId.*context\.conversation/,
    );
  });

  it('refuses an effect that contradicts the MCP annotations', () => {
    const definition = defineFunction({
      description: 'Says it reads but annotates a write.',
      parameters: z.object({}),
      effect: 'read',
      annotations: { readOnlyHint: false },
      handler: () => null,
    });
    expect(() => translateFunction('contradiction', definition, conversationFeatures.check)).toThrow(
      /contradicts annotations.readOnlyHint/,
    );
  });

  it('refuses dedupe and later options out of bounds, in a Worker with the conversations feature', () => {
    const definition = defineFunction({
      description: 'Answers later, too soon to be any use.',
      parameters: z.object({}),
      handler: () => ({ summary: 'x' }),
      later: { answerWithinMs: 5, interim: 'Checking; a message follows.', message: (r) => r.summary },
    });
    expect(() => translateFunction('too_soon', definition, conversationFeatures.check)).toThrow(/answerWithinMs/);
    expect(() =>
      translateFunction(
        'too_soon',
        { ...(definition as AnyFunctionDefinition), later: undefined, dedupe: { windowMs: 5 } },
        conversationFeatures.check,
      ),
    ).toThrow(/windowMs/);
  });

  it('takes readOnlyHint as a read, and anything else as a write', () => {
    const policy = (annotations?: { readOnlyHint: boolean }) =>
      translateFunction(
        'f',
        {
          description: 'A function for the tests.',
          parameters: z.object({}),
          handler: () => null,
          ...(annotations ? { annotations } : {}),
        },
        conversationFeatures.check,
      ).policy;
    expect(policy({ readOnlyHint: true })).toEqual({ effect: 'read' });
    expect(policy()).toEqual({ effect: 'write', dedupe: { windowMs: 600_000 } });
  });
});

describe('a conversation is only as trustworthy as the call (docs/platform-contract.md §9)', () => {
  const ids = { contactId: 'ct_vera', conversationId: 'cv_vera', channel: 'whatsapp' };
  const request = async (body: string, headers: Record<string, string> = {}, query = '') =>
    new Request(`${ORIGIN}/functions/conv_echo?key=${await keyOf('conv_echo')}${query}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', ...headers },
      ...(body ? { body } : {}),
    });
  const answer = async (made: Request, environment: Env): Promise<typeof seen> => {
    seen = undefined;
    const response = await worker.fetch(made, environment, {
      waitUntil: () => {},
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext);
    expect(response.status).toBe(200);
    return seen;
  };

  it('with PLATFORM_SIGNING_SECRET set, carries none on an unsigned call: its ids are neither a conversation nor arguments', async () => {
    const body = JSON.stringify({ note: 'n', ...ids });
    expect(await answer(await request(body), env as Env)).toEqual({ args: { note: 'n' }, conversation: undefined });
    // A signed GET's query string is not covered by its signature: no conversation from it either.
    const query = '&contactId=ct_vera&conversationId=cv_vera';
    const get = await answer(await request('', await webhookHeaders(SIGNING_SECRET, '')), env as Env);
    expect(get?.conversation).toBeUndefined();
    expect(
      (await answer(await request('', await webhookHeaders(SIGNING_SECRET, ''), query), env as Env))?.conversation,
    ).toBeUndefined();
  });

  it('with PLATFORM_SIGNING_SECRET set, carries the ids of a signed body', async () => {
    const body = JSON.stringify({ note: 'n', ...ids });
    const signed = await answer(await request(body, await webhookHeaders(SIGNING_SECRET, body)), env as Env);
    expect(signed).toEqual({ args: { note: 'n' }, conversation: ids });
  });

  it('without PLATFORM_SIGNING_SECRET, carries the ids of every call that has them', async () => {
    const body = JSON.stringify({ note: 'n', ...ids });
    const open = { ...(env as Env), PLATFORM_SIGNING_SECRET: undefined };
    expect(await answer(await request(body), open)).toEqual({ args: { note: 'n' }, conversation: ids });
  });
});

describe('an answer without a conversation', () => {
  it('does not say why to the caller: the 422 of a bad argument still names only the arguments', async () => {
    const response = await call('conv_channel_param', { contactId: 'ct_5' });
    expect(response.status).toBe(422);
    expect((await errorOf(response)).message).toContain('"channel"');
  });
});
