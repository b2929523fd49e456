// What every response must be, judged against the OpenAPI document the API serves (/doc) and the
// request's own expectations (requests.ts):
// - no 5xx; JSON everywhere; every error in WordPress's envelope, data.status equal to the status;
// - the status is one the document declares for that operation and method, and the body
//   validates against the declared schema (ajv, JSON Schema 2020-12; objects are closed: a key
//   the document does not describe is an error); list pages carry their declared headers;
// - a success never shows control characters or lone surrogates (nothing stores them);
// - what the request itself says must happen: rest_no_route, a 401, or no success at all.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import { OPERATIONS } from '#lib/contract/operations.js';
import { documentKey } from '#lib/docs/paths.js';
import type { Received } from './client.js';
import { visible, type FuzzRequest } from './model.js';

export interface Failure {
  /** The rule, e.g. `5xx`, `undeclared-status`, `schema`. */
  check: string;
  detail: string;
}

type Json = Record<string, any>;

const DOC_ID = 'urn:fuzz:doc';

/** A copy of the document with absolute $refs and closed objects. */
function prepare(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prepare);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${DOC_ID}${v}` : prepare(v);
  if (out.properties && typeof out.properties === 'object' && out.additionalProperties === undefined && out.type === 'object') out.additionalProperties = false;
  return out;
}

/** Lone surrogates: no answer may carry one. */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * In keys, C0 control characters (but tab, line feed and carriage return) too. Values may carry
 * them: as WordPress, a body's text keeps what was sent where kses does not run (an editor's
 * title, a venue's fields).
 */
const CONTROL = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]|${LONE.source}`);

/** The first string in a JSON value with a lone surrogate, or key with a control character, with where it is. */
export function controlCharacters(v: unknown, at = '$'): string | undefined {
  if (typeof v === 'string') return LONE.test(v) ? `${at} = ${visible(v.slice(0, 80))}` : undefined;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const hit = controlCharacters(v[i], `${at}[${i}]`);
      if (hit) return hit;
    }
    return undefined;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (CONTROL.test(k)) return `${at} has the key ${visible(k)}`;
      const hit = controlCharacters(x, `${at}.${k}`);
      if (hit) return hit;
    }
  }
  return undefined;
}

export class Oracle {
  private readonly ajv: Ajv2020;
  private readonly doc: Json;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly bySchema = new Map<string, ValidateFunction>();

  constructor(doc: Json) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => void;
    addFormats(this.ajv);
    for (const f of ['double', 'float', 'int32', 'int64']) this.ajv.addFormat(f, true);
    this.ajv.addSchema({ $id: DOC_ID, ...(prepare({ components: doc.components }) as Json) });
    // Compile every response schema now: nothing a request does later can change them.
    for (const op of OPERATIONS) for (const m of op.methods) for (const status of Object.keys(this.responses(op.id, m) ?? {})) this.validator(op.id, m, status);
    for (const h of Object.values((doc.components.headers ?? {}) as Json)) if (h.schema) this.headerValidator(h.schema);
  }

  /** The declared responses of an operation and method. */
  responses(opId: string, method: string): Json | undefined {
    const op = OPERATIONS.find((o) => o.id === opId);
    if (!op) return undefined;
    return this.doc.paths[documentKey(op)]?.[method.toLowerCase()]?.responses;
  }

  private response(opId: string, method: string, status: string): Json | undefined {
    let r = this.responses(opId, method)?.[status] as Json | undefined;
    while (r?.$ref) r = this.doc.components.responses[String(r.$ref).split('/').at(-1)!];
    return r;
  }

  private validator(opId: string, method: string, status: string): ValidateFunction | undefined {
    const key = `${opId} ${method} ${status}`;
    let v = this.validators.get(key);
    if (!v) {
      const schema = this.response(opId, method, status)?.content?.['application/json']?.schema;
      if (!schema) return undefined;
      const text = JSON.stringify(schema);
      v = this.bySchema.get(text);
      if (!v) this.bySchema.set(text, (v = this.ajv.compile(prepare(schema) as Json)));
      this.validators.set(key, v);
    }
    return v;
  }

  private headerValidator(schema: Json): ValidateFunction {
    const text = JSON.stringify(schema);
    let v = this.bySchema.get(text);
    if (!v) this.bySchema.set(text, (v = this.ajv.compile(prepare(schema) as Json)));
    return v;
  }

  check(req: FuzzRequest, res: Received): Failure[] {
    const out: Failure[] = [];
    const fail = (check: string, detail: string) => out.push({ check, detail });
    const status = res.status;
    // WordPress answers a term delete without force=true 501 rest_trash_not_supported: terms have no trash.
    const trashless = status === 501 && /^wp(?:Tags|Categories)\.delete$/.test(req.op ?? '') && res.text.includes('"rest_trash_not_supported"');
    if (status >= 500 && !trashless) fail('5xx', `status ${status}`);

    let body: unknown;
    let parsed = false;
    try {
      body = JSON.parse(res.text);
      parsed = true;
    } catch {
      /* judged below */
    }
    const type = String(res.headers['content-type'] ?? '');
    if (status === 200 && type.startsWith('text/calendar')) {
      // `ical=1`: a calendar file, which the document declares beside the JSON answer.
      if (!req.op || !(this.response(req.op, req.method, '200')?.content as Json | undefined)?.['text/calendar']) fail('undeclared-content', `${type} is not declared`);
      if (!/^BEGIN:VCALENDAR\r\n[\s\S]*END:VCALENDAR\r\n$/.test(res.text)) fail('calendar', `not a calendar file: ${JSON.stringify(res.text.slice(0, 120))}`);
      if (req.expect.reject.length) fail('accepted-invalid', req.expect.reject.join('; '));
      return out;
    }
    if (!parsed || !type.startsWith('application/json')) fail('not-json', `content-type "${type}", body ${JSON.stringify(res.text.slice(0, 120))}`);

    const b = body as Json | undefined;
    if (status >= 400 && parsed) {
      const ok =
        b !== null &&
        typeof b === 'object' &&
        !Array.isArray(b) &&
        typeof b.code === 'string' &&
        b.code !== '' &&
        typeof b.message === 'string' &&
        b.data !== null &&
        typeof b.data === 'object' &&
        b.data.status === status;
      if (!ok) fail('envelope', `not {code, message, data: {status: ${status}}}`);
    }

    if (req.expect.noRoute !== undefined) {
      if (status !== 404 || b?.code !== 'rest_no_route') fail('no-route', `${req.expect.noRoute}: expected 404 rest_no_route`);
      return out;
    }
    if (req.expect.status && !req.expect.status.includes(status)) fail('status', `expected ${req.expect.status.join(' or ')} (${req.expect.reject.join('; ') || 'by the rules'})`);
    if (req.expect.reject.length && status < 400) fail('accepted-invalid', req.expect.reject.join('; '));

    if (req.op) {
      const declared = this.responses(req.op, req.method) ?? {};
      if (!(String(status) in declared)) fail('undeclared-status', `${status} is not among ${Object.keys(declared).join(', ')}`);
      else if (parsed) {
        const validate = this.validator(req.op, req.method, String(status));
        if (validate && !validate(body)) {
          const e = validate.errors?.[0];
          fail('schema', `${e?.instancePath || '$'} ${e?.message ?? 'does not match'}${e?.params ? ` ${JSON.stringify(e.params)}` : ''}`);
        }
        // Declared headers: present, and their value (a number, for these) valid against their schema.
        for (const [name, h] of Object.entries((this.response(req.op, req.method, String(status))?.headers ?? {}) as Json)) {
          const value = res.headers[name.toLowerCase()];
          const schema = (h.$ref ? this.doc.components.headers[String(h.$ref).split('/').at(-1)!] : h)?.schema as Json | undefined;
          const number = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : undefined;
          const check = schema ? this.headerValidator(schema) : undefined;
          if (typeof value !== 'string') fail('headers', `${name} is missing`);
          else if (check && !check(schema!.type === 'integer' || schema!.type === 'number' ? (number ?? value) : value))
            fail('headers', `${name}: ${JSON.stringify(value)} ${check.errors?.[0]?.message ?? 'does not match'}`);
        }
      }
    }
    if (status < 300 && parsed) {
      const hit = controlCharacters(body);
      if (hit) fail('control-characters', hit);
    }
    return out;
  }
}
