import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesOf } from '../server/domain/parse.ts';

describe('issuesOf', () => {
  it('names an unknown field, cut to 100 characters, so an error never repeats a caller key of any size', () => {
    const huge = `{"name":${'['.repeat(50_000)}`;
    const r = z.strictObject({ name: z.string() }).safeParse({ name: 'a', [huge]: '', short: 1 });
    expect(r.success).toBe(false);
    const [issue] = issuesOf(r.error!);
    const shown = `${huge.slice(0, 99)}…`;
    expect(issue).toEqual({ path: `${shown}.short`, message: `unknown fields: ${shown}, short` });
  });
});
