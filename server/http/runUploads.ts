import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from '../../contract/common.ts';
import { Invalid, TooLarge } from '../domain/errors.ts';
import { badFileName, type RunForm } from '../runs/uploads.ts';
import { mediaTypeOf } from './route.ts';
import { uploadError } from './uploadErrors.ts';

/** A field's text: a part sent as application/json arrives parsed; keep the text form the contract speaks of. */
function fieldText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  // Checked before JSON.stringify, which recurses and would overflow the stack on deep input.
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) throw new Invalid([{ path: name, message: tooDeepMessage(name) }]);
  return JSON.stringify(value);
}

/** Fields a JSON body may send as booleans (`"heal": true`); as text, the other encodings' form, they read the same. */
const BOOLEAN_FIELDS = new Set(['heal']);

/**
 * A run_workflow body sent urlencoded (Simplex's clients, when there are no files) or as JSON (older
 * docs, with `variables` as an object): the same fields as text, so one schema checks all three
 * encodings. A JSON object or list becomes its JSON text, as the clients do; a boolean of
 * BOOLEAN_FIELDS becomes "true" or "false"; a null is left out.
 */
function fieldsOfBody(body: unknown, urlencoded: boolean): Record<string, string> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new Invalid([{ path: '(body)', message: 'the body must be an object of fields' }]);
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    if (urlencoded && Array.isArray(value)) {
      throw new Invalid([{ path: name, message: `${name} was sent more than once` }]);
    }
    if (typeof value === 'boolean' && BOOLEAN_FIELDS.has(name)) {
      fields[name] = String(value);
      continue;
    }
    if (typeof value !== 'string' && (typeof value !== 'object' || name === 'files')) {
      throw new Invalid([
        {
          path: name,
          message:
            name === 'files'
              ? 'files can only be sent as multipart/form-data parts'
              : BOOLEAN_FIELDS.has(name)
                ? `${name} must be true or false (a boolean, or the text "true" or "false")`
                : `${name} must be a string`,
        },
      ]);
    }
    fields[name] = fieldText(name, value);
  }
  return fields;
}

/**
 * Read a run_workflow body: multipart with files, or urlencoded or JSON fields without.
 */
export async function receiveRunRequest(
  req: FastifyRequest,
  dir: string,
  limits: { maxFiles: number; maxFileBytes: number },
): Promise<RunForm> {
  if (req.isMultipart()) return receiveRunForm(req, dir, limits);
  return { fields: fieldsOfBody(req.body, mediaTypeOf(req) === 'application/x-www-form-urlencoded'), files: [] };
}

/**
 * Read a run_workflow multipart body, streaming each `files` part straight into `dir` (never held
 * in memory). @fastify/multipart's limits stop a request with too many or too large files while
 * it streams (413); a body that is not well-formed multipart is a 400. On any error the folder is
 * removed and nothing is kept.
 */
async function receiveRunForm(
  req: FastifyRequest,
  dir: string,
  limits: { maxFiles: number; maxFileBytes: number },
): Promise<RunForm> {
  const fields: Record<string, string> = {};
  const files: string[] = [];
  try {
    const parts: AsyncIterableIterator<Multipart> = req.parts();
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname in fields)
          throw new Invalid([{ path: part.fieldname, message: `${part.fieldname} was sent more than once` }]);
        fields[part.fieldname] = fieldText(part.fieldname, part.value);
        continue;
      }
      if (part.fieldname !== 'files') {
        part.file.resume();
        throw new Invalid([{ path: part.fieldname, message: 'files must be sent in parts named files' }]);
      }
      const name = path.basename(part.filename ?? '');
      const bad = badFileName(name) ?? (files.includes(name) ? `two files are named ${name}` : null);
      if (bad) {
        part.file.resume();
        throw new Invalid([{ path: `files.${files.length}`, message: bad }]);
      }
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      await pipeline(part.file, fs.createWriteStream(path.join(dir, name), { mode: 0o600 }));
      if (part.file.truncated) {
        throw new TooLarge(`File ${name} is larger than the ${limits.maxFileBytes}-byte limit (MAX_FILE_BYTES)`);
      }
      files.push(name);
    }
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw uploadError(err, limits);
  }
  return { fields, files };
}
