import { describe, expect, it } from 'vitest';
import { sessionMetadataOf, workflowMetadataOf } from '../server/workflows/simplexMetadata.ts';
import { structuredOutputOf } from '../server/workflows/structuredOutput.ts';

// The typed views Simplex's clients read: structured_output from the extract texts, and the metadata fields.
describe("structured_output typed by the workflow's declaration", () => {
  const fields = [
    { name: 'total', type: 'number' },
    { name: 'paid', type: 'boolean' },
    { name: 'status', type: 'enum', enumValues: ['pending', 'active'] },
    { name: 'tags', type: 'array' },
    { name: 'address', type: 'object' },
    { name: 'note', type: 'string' },
  ];

  it("reads each text as its field's type; undeclared values keep their text, undeclared fields stay absent", () => {
    const outputs = {
      total: ' 42.50\n',
      paid: 'TRUE',
      status: ' active ',
      tags: '["a", 1]',
      address: '{"city":"Oslo"}',
      note: ' as is ',
      extra: '7',
    };
    expect(structuredOutputOf(outputs, fields)).toEqual({
      total: 42.5,
      paid: true,
      status: 'active',
      tags: ['a', 1],
      address: { city: 'Oslo' },
      note: ' as is ',
      extra: '7',
    });
  });

  it('a text that is not its type is null (scraper_outputs keeps it)', () => {
    const outputs = { total: '$42.50', paid: 'yes', status: 'closed', tags: '{"a":1}', address: '[1]', note: '' };
    expect(structuredOutputOf(outputs, fields)).toEqual({
      total: null,
      paid: null,
      status: null,
      tags: null,
      address: null,
      note: '',
    });
    expect(structuredOutputOf({ total: '1,234.50' }, fields)).toEqual({ total: null });
    expect(structuredOutputOf({ total: '-1e3' }, fields)).toEqual({ total: -1000 });
    expect(structuredOutputOf({ total: '1e999' }, fields)).toEqual({ total: null });
  });

  it('a JSON Schema object types by its properties (integer must be whole, enum by its list)', () => {
    const schema = {
      type: 'object',
      properties: { count: { type: 'integer' }, price: { type: 'number' }, size: { enum: ['s', 'm'] } },
    };
    expect(structuredOutputOf({ count: '3', price: '3.5', size: 'm' }, schema)).toEqual({
      count: 3,
      price: 3.5,
      size: 'm',
    });
    expect(structuredOutputOf({ count: '3.5' }, schema)).toEqual({ count: null });
  });

  it('without a declaration every value keeps its text', () => {
    for (const declaration of [null, { keep: true }, 'text', 42])
      expect(structuredOutputOf({ total: '42.50' }, declaration)).toEqual({ total: '42.50' });
  });
});

describe('metadata as the clients type it', () => {
  it('session_metadata: parsed when the string holds JSON, else the string; null when none', () => {
    expect(sessionMetadataOf('{"order": 7}')).toEqual({ order: 7 });
    expect(sessionMetadataOf('[1]')).toEqual([1]);
    expect(sessionMetadataOf('req-789')).toBe('req-789');
    expect(sessionMetadataOf(`${'['.repeat(100)}${']'.repeat(100)}`)).toBe(`${'['.repeat(100)}${']'.repeat(100)}`);
    expect(sessionMetadataOf(null)).toBeNull();
  });

  it('workflow_metadata: an object when the string holds a JSON object, else the string as stored; null when none', () => {
    expect(workflowMetadataOf('{"team":"b"}')).toEqual({ team: 'b' });
    for (const text of ['team-b', '[1,2]', '42', 'null', '"x"']) expect(workflowMetadataOf(text)).toBe(text);
    expect(workflowMetadataOf(null)).toBeNull();
  });
});
