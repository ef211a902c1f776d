// POST /v1/sub-accounts: Agency plans only; Agency includes 10, Agency Unlimited has no cap (spec).
import { subAccountInput } from 'agent-functions/platform';
import { EmulatorError } from '../http.ts';
import type { Route } from '../route.ts';
import { validBody } from '../route.ts';
import { subAccountShape } from '../shapes.ts';
import { INCLUDED_SUB_ACCOUNTS, nextId, PLAN_NAMES } from '../state.ts';

export const subAccountRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/sub-accounts',
    handler: async ({ account, request, settings }) => {
      const input = await validBody(request, subAccountInput);
      const included = INCLUDED_SUB_ACCOUNTS[account.plan];
      if (included === 0) {
        throw new EmulatorError(
          403,
          'plan_without_sub_accounts',
          `The ${PLAN_NAMES[account.plan]} plan has no client sub-accounts: they come with the Agency and Agency Unlimited plans.`,
        );
      }
      const extra = account.subAccounts.size >= included;
      if (extra && settings.agencyExtraSubAccounts === 'refuse') {
        throw new EmulatorError(
          402,
          'sub_account_cap',
          `The ${PLAN_NAMES[account.plan]} plan includes ${included} client sub-accounts and all are in use; further ones are charged per sub-account. Enable extra sub-accounts or move to Agency Unlimited (emulator: --agency-extra charge).`,
        );
      }
      const { id } = nextId(account, 'sa');
      const sub = { id, ...input, extra, createdAt: new Date().toISOString() };
      account.subAccounts.set(id, sub);
      return { status: 201, body: subAccountShape(sub) };
    },
  },
];
