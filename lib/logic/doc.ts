// The OpenAPI document (/doc): its own module, so that only the document function carries the builder.
import { json, type Reply } from '../http.js';
import { openApiDocument } from '../openapi.js';
import type { RequestContext } from '../pipeline.js';

export async function openApi(ctx: RequestContext): Promise<Reply> {
  return json(200, openApiDocument(ctx.lang));
}
