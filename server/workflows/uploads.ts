import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError, invalid } from '../http/errors.ts';

export interface RunForm {
  /** Text fields by name (each at most once). */
  fields: Record<string, string>;
  /** Uploaded file names (each written to dir/<name>). */
  files: string[];
}

const tooLarge = (message: string) => new AppError(413, ErrorCode.tooLarge, message);

/**
 * Read a run_workflow multipart body, streaming each `files` part straight into `dir` (never held
 * in memory). @fastify/multipart's limits stop a request with too many or too large files while
 * it streams (413). On any error the folder is removed and nothing is kept.
 */
export async function receiveRunForm(req: FastifyRequest, dir: string, limits: { maxFiles: number; maxFileBytes: number }): Promise<RunForm> {
  const fields: Record<string, string> = {};
  const files: string[] = [];
  try {
    const parts: AsyncIterableIterator<Multipart> = req.parts();
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname in fields) throw invalid([{ path: part.fieldname, message: `${part.fieldname} was sent more than once` }]);
        // A part sent as application/json arrives parsed; keep the text form the contract speaks of.
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        continue;
      }
      if (part.fieldname !== 'files') {
        part.file.resume();
        throw invalid([{ path: part.fieldname, message: 'files must be sent in parts named files' }]);
      }
      const name = path.basename(part.filename ?? '');
      if (!name || name === '.' || name === '..') {
        part.file.resume();
        throw invalid([{ path: `files.${files.length}`, message: 'each file needs a file name' }]);
      }
      if (files.includes(name)) {
        part.file.resume();
        throw invalid([{ path: `files.${files.length}`, message: `two files are named ${name}` }]);
      }
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      await pipeline(part.file, fs.createWriteStream(path.join(dir, name), { mode: 0o600 }));
      if (part.file.truncated) throw tooLarge(`File ${name} is larger than the ${limits.maxFileBytes}-byte limit (MAX_FILE_BYTES)`);
      files.push(name);
    }
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw tooLarge(`Too many files: at most ${limits.maxFiles} (MAX_FILES)`);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(`A file is larger than the ${limits.maxFileBytes}-byte limit (MAX_FILE_BYTES)`);
    throw err;
  }
  return { fields, files };
}
