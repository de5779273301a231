import { randomUUID } from 'node:crypto';
import type { WriteRecord } from '../../contract/write.ts';
import { nowIso, type Sql } from './db.ts';

interface WriteRow {
  seq: number;
  id: string;
  prompt: string;
  text: string;
  word_count: number;
  error: string | null;
  input_tokens: number;
  output_tokens: number;
  finish_reason: string;
  model: string;
  duration_ms: number;
  created_at: string;
}

export type NewWrite = Omit<WriteRecord, 'id' | 'created_at'>;

function toRecord(row: WriteRow): WriteRecord {
  return {
    id: row.id,
    prompt: row.prompt,
    text: row.text,
    word_count: row.word_count,
    error: row.error === null ? null : (row.error as WriteRecord['error']),
    usage: { input_tokens: row.input_tokens, output_tokens: row.output_tokens },
    finish_reason: row.finish_reason,
    model: row.model,
    duration_ms: row.duration_ms,
    created_at: row.created_at,
  };
}

/** The writes table: the history behind GET /writes. */
export function writesRepo(sql: Sql) {
  return {
    async insert(write: NewWrite): Promise<WriteRecord> {
      const record: WriteRecord = { ...write, id: randomUUID(), created_at: nowIso() };
      await sql.run(
        `INSERT INTO writes (id, prompt, text, word_count, error, input_tokens, output_tokens, finish_reason, model, duration_ms, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          record.prompt,
          record.text,
          record.word_count,
          record.error,
          record.usage.input_tokens,
          record.usage.output_tokens,
          record.finish_reason,
          record.model,
          record.duration_ms,
          record.created_at,
        ],
      );
      return record;
    },
    /**
     * Newest first. `before` is the position after the previous page (its `nextBefore`);
     * one extra row is read to know whether another page follows.
     */
    async page(limit: number, before?: number): Promise<{ items: WriteRecord[]; nextBefore: number | null }> {
      const rows =
        before === undefined
          ? await sql.all<WriteRow>('SELECT * FROM writes ORDER BY seq DESC LIMIT ?', [limit + 1])
          : await sql.all<WriteRow>('SELECT * FROM writes WHERE seq < ? ORDER BY seq DESC LIMIT ?', [
              before,
              limit + 1,
            ]);
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return { items: items.map(toRecord), nextBefore: rows.length > limit && last ? last.seq : null };
    },
    count: async () => (await sql.get<{ n: number }>('SELECT count(*) AS n FROM writes'))!.n,
  };
}
export type WritesRepo = ReturnType<typeof writesRepo>;
