import type { FastifyInstance } from 'fastify';
import { InvalidRequestError } from '@runtimectl/core';
import { illFormedStringRefusal } from './ill-formed-strings';
import { prototypeKeyRefusal } from './prototype-keys';

/**
 * Deepest nesting of arrays and objects a JSON body may have. Validation (zod) and
 * serialisation recurse once per level, so a body of a few kilobytes nested some thousands of
 * levels deep would overflow the stack and answer 500; real documents stay far below this.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Whether `text` (JSON) nests arrays and objects deeper than `maxDepth`. One pass over the
 * characters, brackets inside strings ignored; it does not validate the JSON (the parser does).
 */
export function jsonNestingExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * Replaces the plugin's `application/json` parser with fastify's own (same empty-body,
 * malformed-JSON and prototype-poisoning answers) behind a nesting-depth check: a body nested
 * deeper than `MAX_JSON_DEPTH` is `invalid_request` before anything recurses into it. Fastify
 * reports a refused `__proto__` / `constructor.prototype` key as "not valid JSON"; that answer
 * is replaced by one naming the key and why it is refused. A string that is not well-formed
 * UTF-16 (a lone surrogate), anywhere in the body, is `invalid_request` naming where it is.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
      done(new InvalidRequestError(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    parseJson(request, text, (error, parsed) => {
      if (!error) {
        const refusal = illFormedStringRefusal(parsed);
        return refusal ? done(refusal, undefined) : done(null, parsed);
      }
      const invalidJson = (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY';
      done((invalidJson && prototypeKeyRefusal(text)) || error, undefined);
    });
  });
}
