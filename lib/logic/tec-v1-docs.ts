// `tec/v1`'s OpenAPI document: its own module, so that only its function carries the builder.
import { json, type Reply } from '#lib/contract/reply.js';
import type { RequestContext } from '#lib/contract/request.js';
import { tecV1Document } from '#lib/docs/tec-v1.js';

export async function tecV1Docs(ctx: RequestContext): Promise<Reply> {
  return json(200, tecV1Document(ctx.lang));
}
