// Approvals as a layer over the conversations feature (createWorker's `conversations` option):
// a function with an `approval` asks the team before its handler runs; every other function goes
// straight to the feature underneath, with nothing added to its path but one property read.
import type { ConversationFeatures } from '../conversations/features.ts';
import type { FeatureRoute } from '../route.ts';
import { requestApproval, unavailable } from './ask.ts';
import { checkApproval } from './check.ts';
import { APPROVALS_PATH, serveApprovalPage } from './page.ts';
import { type ApprovalRuntime, setApprovalRuntime, type TeamContactOf } from './runtime.ts';

/** What withApproval takes beside the feature it wraps. */
export interface ApprovalFeatureOptions {
  /**
   * The team contact of an account, who is asked: undefined makes every approval unavailable.
   * @example teamContact: (env, account) => ({ contactId: account.settings.teamInbox ?? env.TEAM_INBOX_ID, channel: 'whatsapp' })
   */
  teamContact: TeamContactOf;
  /**
   * The most asks one account's team gets in 10 minutes (default TEAM_ASK_LIMIT, 20): past it a
   * call that needs approval answers that approval is unavailable (docs/security.md).
   */
  teamAskLimit?: number;
}

/**
 * The conversations feature with approvals (docs/functions.md "Approval").
 * @example createWorker({ functions, conversations: withApproval(conversationFeatures, { teamContact }) })
 */
export const withApproval = (base: ConversationFeatures, options: ApprovalFeatureOptions): ConversationFeatures => {
  let runtime: ApprovalRuntime | undefined;
  const run: ConversationFeatures['run'] = (fn, inv, args, plain) => {
    const approval = fn.definition.approval;
    if (!approval) return base.run(fn, inv, args, plain);
    const ready = runtime;
    // createWorker registers before any call; without it nobody could be asked, and nothing runs.
    const ask = () => (ready ? requestApproval(ready, fn, inv, args) : Promise.reject(unavailable()));
    // The call's record is an approval's ask (src/record.ts), a repeat answered from the ledger too.
    const asking = () => {
      if (inv.mark) inv.mark.kind = 'approval_ask';
      return base.run(fn, inv, args, ask);
    };
    if (!approval.when) return asking();
    const context = { env: inv.env, conversation: inv.conversation, account: inv.account.name };
    // A `when` that fails asks rather than runs: nothing runs unapproved.
    return Promise.resolve()
      .then(() => approval.when?.(args as never, context))
      .catch(() => true)
      .then((needed) => (needed === false ? base.run(fn, inv, args, plain) : asking()));
  };
  const routes: FeatureRoute[] = [...(base.routes ?? []), [`${APPROVALS_PATH}/*`, serveApprovalPage]];
  return {
    run,
    check: (definition, parameterNames) => {
      const { approval: _asked, ...rest } = definition;
      const policy = base.check(rest, parameterNames);
      checkApproval(definition, policy.effect);
      return policy;
    },
    register: (deferred) => {
      base.register(deferred);
      runtime = { ...deferred, teamContact: options.teamContact, teamAskLimit: options.teamAskLimit };
      setApprovalRuntime(runtime);
    },
    routes,
  };
};
