// GET /openapi.json in workerd: guarded like the manifest, one operation per function, derived
// from the manifest. The third-party validator runs on it in e2e/openapi.test.ts.
import { createExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker, type WorkerOptions } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { manifestKey } from '../../keys.ts';
import { openApiDocument } from '../../openapi.ts';
import { FIXTURE_FUNCTIONS as functions } from '../fixtures/functions/index.ts';
import { errorOf, keyOf, SECRET, send } from '../helpers.ts';

interface Operation {
  operationId: string;
  description: string;
  security: Record<string, string[]>[];
  requestBody: { content: { 'application/json': { schema: { $ref: string } } } };
  responses: Record<string, { $ref?: string }>;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, { post: Operation }>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown> }>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
  };
}

const readDocument = async () =>
  send('/openapi.json', { headers: { authorization: `Bearer ${await manifestKey(SECRET)}` } });

const development = (definitions: WorkerOptions['functions']) =>
  createWorker({ functions: definitions, openapi: openApiDocument }).fetch(
    new Request('http://127.0.0.1:8787/openapi.json'),
    { AGENT_FUNCTIONS_MODE: 'development' } as Env,
    createExecutionContext(),
  );

describe('GET /openapi.json', () => {
  it('needs the manifest key in production, like GET /functions', async () => {
    expect((await send('/openapi.json')).status).toBe(401);
    expect((await send('/openapi.json', { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(401);
    const functionKey = await keyOf('quote_plan');
    expect((await send('/openapi.json', { headers: { authorization: `Bearer ${functionKey}` } })).status).toBe(401);
    expect((await readDocument()).status).toBe(200);
  });

  it('is open in local development', async () => {
    const probe = defineFunction({
      description: 'A probe that the document lists.',
      parameters: z.object({ n: z.int() }),
      handler: () => null,
    });
    const res = await development({ probe });
    expect(res.status).toBe(200);
    expect(Object.keys(((await res.json()) as Document).paths)).toEqual(['/functions/probe']);
  });

  it('has one POST operation per manifest entry, named and described as the platform sees it', async () => {
    const manifest = (await (
      await send('/functions', { headers: { authorization: `Bearer ${await manifestKey(SECRET)}` } })
    ).json()) as { functions: { name: string; path: string; description: string; jsonSchema: object }[] };
    const res = await readDocument();
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await res.json()) as Document;
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://functions.example.com' }]);
    expect(Object.keys(document.paths)).toEqual(manifest.functions.map((fn) => fn.path));
    for (const fn of manifest.functions) {
      const operation = document.paths[fn.path]?.post as Operation;
      expect(operation.operationId).toBe(fn.name);
      expect(operation.description).toBe(fn.description);
      expect(operation.requestBody.content['application/json'].schema).toEqual({
        $ref: `#/components/schemas/${fn.name}`,
      });
      const { $schema: _, ...schema } = fn.jsonSchema as { $schema?: string };
      expect(document.components.schemas[fn.name]).toEqual(schema);
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '404', '413', '422', '429', '500', '503', '504', 'default']),
      );
    }
  });

  it('offers the three key placements of docs/platform-contract.md §4 as security schemes', async () => {
    const document = (await (await readDocument()).json()) as Document;
    expect(document.components.securitySchemes).toMatchObject({
      functionKey: { type: 'apiKey', in: 'query', name: 'key' },
      functionKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Function-Key' },
      functionKeyBearer: { type: 'http', scheme: 'bearer' },
    });
    const operation = document.paths[`/functions/${Object.keys(functions)[0]}`]?.post as Operation;
    expect(operation.security).toEqual([{ functionKey: [] }, { functionKeyHeader: [] }, { functionKeyBearer: [] }]);
    expect(document.components.schemas.Error?.properties).toHaveProperty('error');
  });

  it('moves a recursive schema into components, so every reference resolves in the document', async () => {
    const Node = z.object({
      label: z.string(),
      get children() {
        return z.array(Node).optional();
      },
    });
    const tree = defineFunction({
      description: 'Takes a tree of labels.',
      parameters: z.object({ root: Node.describe('The tree') }),
      handler: () => null,
    });
    const text = await (await development({ tree })).text();
    expect(text).not.toContain('#/$defs/');
    const document = JSON.parse(text) as Document;
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] as string);
    expect(refs).toContain('tree.__schema0');
    for (const ref of refs) expect(document.components.schemas).toHaveProperty([ref]);
  });

  it('is not served when the Worker leaves the option out', async () => {
    const probe = defineFunction({
      description: 'A probe with no document.',
      parameters: z.object({}),
      handler: () => 1,
    });
    const res = await createWorker({ functions: { probe } }).fetch(
      new Request('http://127.0.0.1:8787/openapi.json'),
      { AGENT_FUNCTIONS_MODE: 'development' } as Env,
      createExecutionContext(),
    );
    expect(res.status).toBe(404);
  });

  it('answers 500 naming a definition the platform cannot carry', async () => {
    const mixed = defineFunction({
      description: 'Takes a value of two types, which the flat map cannot express.',
      parameters: z.object({ when: z.union([z.string(), z.number()]).describe('When') }),
      handler: () => null,
    });
    const res = await development({ mixed });
    expect(res.status).toBe(500);
    expect((await errorOf(res)).message).toMatch(/Function "mixed", parameter "when": is a union/);
  });
});
