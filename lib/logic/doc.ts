// The OpenAPI document (/doc): its own module, so that only the document function carries the builder.
import { json, type Reply } from '#lib/contract/reply.js';
import { openApiDocument } from '#lib/docs/openapi.js';
import type { RequestContext } from '#lib/contract/request.js';

export async function openApi(ctx: RequestContext): Promise<Reply> {
  return json(200, openApiDocument(ctx.lang));
}
