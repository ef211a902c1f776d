// Where an alert goes (docs/platform-contract.md §11): one platform message to the alerts contact
// (ALERTS_CONTACT_ID on ALERTS_CHANNEL, else the first account's settings `alertsContactId` and
// `alertsChannel`) through the first account's platform client, and a signed copy to
// ALERTS_WEBHOOK_URL when set. The message's outcome decides the incident's (the webhook's when no
// contact is set); the other destination is a copy, logged when it fails.
import type { AccountResolver } from '../accounts/resolve.ts';
import type { Env } from '../env.ts';
import type { Logger } from '../log.ts';
import type { PlatformClient } from '../platform/client/client.ts';
import { PlatformError } from '../platform/client/errors.ts';
import type { Notice, SendOutcome } from './incidents.ts';
import { noticeText, RUNBOOK } from './notice.ts';
import { postWebhook } from './webhook.ts';

/** Where this evaluation's messages go. */
export interface Destination {
  contact?: { contactId: string; channel: string; platform: PlatformClient } | undefined;
  webhook?: { url: string; secret: string } | undefined;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The alerts contact and webhook of `env`; a first account that cannot reach the platform gives no contact (logged). */
export const destinationOf = async (env: Env, resolve: AccountResolver, log: Logger): Promise<Destination> => {
  const webhookUrl = text(env.ALERTS_WEBHOOK_URL);
  const secret = text(env.ALERTS_WEBHOOK_SECRET);
  const webhook = webhookUrl && secret ? { url: webhookUrl, secret } : undefined;
  if (webhookUrl && !secret)
    log.warn('alerts_webhook_unsigned', { hint: 'set ALERTS_WEBHOOK_SECRET: no copy is sent unsigned' });
  try {
    const { account, platform } = await resolve(env, undefined, log);
    const settings = account.settings as Record<string, unknown>;
    const contactId = text(env.ALERTS_CONTACT_ID) || text(settings.alertsContactId);
    const channel = text(env.ALERTS_CHANNEL) || text(settings.alertsChannel) || 'whatsapp';
    if (!contactId || !platform) return { webhook };
    return { contact: { contactId, channel, platform: platform(AbortSignal.timeout(25_000), log) }, webhook };
  } catch {
    // The first account's key or address is missing: logged by the resolver; the message waits.
    return { webhook };
  }
};

const sendMessage = async (contact: NonNullable<Destination['contact']>, body: string): Promise<SendOutcome> => {
  try {
    await contact.platform.messages.send({ contactId: contact.contactId, channel: contact.channel, text: body });
    return 'sent';
  } catch (error) {
    // A clear refusal sent nothing; anything else (no answer, a 5xx to a POST) may have gone out.
    return error instanceof PlatformError && !error.ambiguous ? 'refused' : 'ambiguous';
  }
};

/** Sends `notice` to `destination`; 'refused' when there is nowhere to send it. */
export const deliver = async (
  notice: Notice,
  destination: Destination,
  log: Logger,
  now: number,
): Promise<SendOutcome> => {
  const body = noticeText(notice);
  const fields = { account: notice.account, function: notice.function, rule: notice.rule, notice: notice.kind };
  const message = destination.contact ? sendMessage(destination.contact, body) : undefined;
  const copy = destination.webhook
    ? postWebhook(
        destination.webhook,
        notice.id,
        {
          type: `function.alert.${notice.kind}`,
          timestamp: new Date(now).toISOString(),
          data: { ...notice, text: body, runbook: RUNBOOK },
        },
        now,
      )
    : undefined;
  const [sent, copied] = await Promise.all([message, copy]);
  const outcome = sent ?? copied ?? 'refused';
  if (sent && copied && copied !== 'sent') log.warn('alert_webhook_failed', { ...fields, outcome: copied });
  if (outcome === 'sent') log.info('alert_sent', fields);
  else if (outcome === 'ambiguous')
    log.error('alert_send_ambiguous', { ...fields, hint: 'it may have arrived; it is not sent again' });
  else
    log.warn('alert_not_sent', {
      ...fields,
      hint:
        destination.contact || destination.webhook
          ? 'refused; tried again at the next tick'
          : 'set ALERTS_CONTACT_ID (or ALERTS_WEBHOOK_URL); tried again at the next tick',
    });
  return outcome;
};
