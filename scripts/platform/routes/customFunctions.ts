// /v1/custom-functions per docs/platform-contract.md §5: list (paginated), create (409 on a taken name), get,
// update, delete.
import { functionRecord, functionRecordUpdate } from 'agent-functions/platform';
import { EmulatorError } from '../http.ts';
import type { Route } from '../route.ts';
import { found, paginate, validBody } from '../route.ts';
import { deletedShape, functionShape, pageShape } from '../shapes.ts';
import { type AccountState, type CustomFunctionRecord, nextId } from '../state.ts';

const ONE = '/v1/custom-functions/:id';

const nameTaken = (account: AccountState, name: string, except?: string) => {
  const holder = [...account.functions.values()].find((fn) => fn.name === name && fn.id !== except);
  if (holder) {
    throw new EmulatorError(
      409,
      'name_taken',
      `A custom function named "${name}" already exists (id ${holder.id}): update it with PATCH /v1/custom-functions/${holder.id}.`,
    );
  }
};

export const customFunctionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/custom-functions',
    handler: async ({ account, url, settings }) => {
      const { page, next } = paginate(account.functions.values(), url, settings.pageSize);
      return { status: 200, body: pageShape(page.map(functionShape), next) };
    },
  },
  {
    method: 'POST',
    path: '/v1/custom-functions',
    handler: async ({ account, request }) => {
      const input = await validBody(request, functionRecord);
      nameTaken(account, input.name);
      const { id, seq } = nextId(account, 'cf');
      const now = new Date().toISOString();
      const fn: CustomFunctionRecord = { id, seq, ...input, createdAt: now, updatedAt: now };
      account.functions.set(id, fn);
      return { status: 201, body: functionShape(fn) };
    },
  },
  {
    method: 'GET',
    path: ONE,
    handler: async ({ account, params }) => ({
      status: 200,
      body: functionShape(found(account.functions, params.id, 'custom function')),
    }),
  },
  {
    method: 'PATCH',
    path: ONE,
    handler: async ({ account, request, params }) => {
      const fn = found(account.functions, params.id, 'custom function');
      const input = await validBody(request, functionRecordUpdate);
      if (input.name !== undefined) nameTaken(account, input.name, fn.id);
      Object.assign(fn, input, { updatedAt: new Date().toISOString() });
      return { status: 200, body: functionShape(fn) };
    },
  },
  {
    method: 'DELETE',
    path: ONE,
    handler: async ({ account, params }) => {
      const fn = found(account.functions, params.id, 'custom function');
      account.functions.delete(fn.id);
      return { status: 200, body: deletedShape(fn.id) };
    },
  },
];
