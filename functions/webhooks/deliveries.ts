import { listWebhookDeliveries } from '#lib/logic/webhooks.js';
import { handle } from '#lib/http/pipeline.js';

export const handler = handle('webhooks.deliveries', listWebhookDeliveries);
