import { defineEvent } from 'agent-functions';
import { z } from 'zod';
import { sendToCustomer } from '../lib/optOuts.ts';
import { CALENDAR } from '../lib/slots.ts';

const when = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: CALENDAR.timezone,
    dateStyle: 'full',
    timeStyle: 'short',
  }).format(new Date(iso));

// Sends the customer one confirmation per booking, even when the platform delivers the event twice
// (or with a new id): `once` is keyed by the appointment, not the delivery. The payload shape is
// our assumption (docs/platform-contract.md §7: the spec shows none); unknown fields pass.
export default defineEvent({
  type: 'appointment.booked',
  payload: z.looseObject({
    data: z.looseObject({
      appointment: z.looseObject({
        id: z.string().min(1),
        contactId: z.string().min(1),
        startsAt: z.iso.datetime({ offset: true }),
        channel: z.string().min(1).default('whatsapp'),
      }),
    }),
  }),
  handler: async ({ data: { appointment } }, context) => {
    const outcome = await context.once(`confirmation:${appointment.id}`, async () => {
      const sent = await sendToCustomer(context, {
        contactId: appointment.contactId,
        channel: appointment.channel,
        text: `Your appointment on ${when(appointment.startsAt)} is confirmed. Reply here if you need to change it.`,
      });
      context.log.info(
        sent.sent ? 'confirmation_sent' : 'confirmation_skipped',
        sent.sent ? {} : { reason: sent.reason },
      );
    });
    if (outcome === 'already-done') context.log.info('confirmation_already_sent');
  },
});
