import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonColumn, StoredValueError } from '../server/store/jsonColumn.ts';

// The store's JSON columns are read back through the schema they were written from.
describe('a JSON column', () => {
  const column = jsonColumn('things.list', z.array(z.object({ n: z.number().int() })));

  it('reads back what it wrote', () => {
    const text = column.write([{ n: 1 }, { n: 2 }]);
    expect(text).toBe('[{"n":1},{"n":2}]');
    expect(column.read(text)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("fails as the server's fault, naming the column, on text that is not JSON or not of the schema", () => {
    expect(() => column.read('[{"n":')).toThrow(StoredValueError);
    expect(() => column.read('[{"n":')).toThrow('things.list holds a value that cannot be read: it is not JSON');
    expect(() => column.read('[{"n":1.5}]')).toThrow(/^things\.list holds a value that cannot be read: 0\.n: /);
    // Not the ZodError the HTTP error handler would answer as the caller's 422.
    expect(() => column.read('{}')).toThrow(StoredValueError);
  });

  it('answers the fallback instead when asked to', () => {
    expect(column.readOr('nonsense', 'none')).toBe('none');
    expect(column.readOr('[{"n":3}]', 'none')).toEqual([{ n: 3 }]);
  });
});
