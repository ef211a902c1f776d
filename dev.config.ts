// What `npm run dev` starts for this project's functions beside the local platform (agent-functions
// dev reads this file): the examples' stand-ins. Delete an example's lines with the example.
import { defineDevConfig } from 'agent-functions-cli/dev';
import { startOrderStore } from './dev/orderStore.ts';

export default defineDevConfig({
  async setup({ platform }) {
    // get_order_status: a stand-in for the shop's order API, holding the orders of dev/orderStore.ts.
    const store = await startOrderStore();
    // handoff_to_human: the team inbox it writes to, a contact of the local platform's account.
    const inbox = await platform.contacts.create({
      name: 'Team inbox (HANDOFF_CONTACT_ID)',
      phone: '+14155550100',
      channel: 'whatsapp',
    });
    // The metrics option's alerts (docs/observability.md): the agency's contact that receives them.
    const alerts = await platform.contacts.create({
      name: 'Agency alerts (ALERTS_CONTACT_ID)',
      phone: '+14155550101',
      channel: 'whatsapp',
    });
    return {
      vars: {
        STORE_API_URL: store.url,
        STORE_API_KEY: store.apiKey,
        HANDOFF_CONTACT_ID: inbox.id,
        ALERTS_CONTACT_ID: alerts.id,
      },
      stop: store.close,
    };
  },
});
