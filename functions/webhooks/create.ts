import { createWebhook, listWebhookSubscriptions } from '#lib/logic/webhooks.js';
import { handle, serves } from '#lib/http/pipeline.js';

export const handler = handle('webhooks.create', createWebhook, { overrides: [serves('webhooks.list', listWebhookSubscriptions)] });
