import { describe, expect, it } from 'vitest';
import { fieldLabel, inWords } from './field-messages.ts';

describe('messages in words', () => {
  it('names a field in words', () => {
    expect(fieldLabel('workflow_name')).toBe('Workflow name');
    expect(fieldLabel('allowed_origins')).toBe('Allowed origins');
    expect(fieldLabel('flowText')).toBe('Flow text');
  });

  it("turns the wire's field messages into sentences about the field", () => {
    expect(inWords('workflow_name', 'workflow_name must not be empty')).toBe('Enter a workflow name.');
    expect(inWords('value', 'value must not be empty')).toBe('Enter a value.');
    expect(
      inWords('session_data', 'session_data must be a string holding valid JSON (a Playwright storage state)'),
    ).toBe('Session data must be valid JSON (a Playwright storage state).');
    expect(inWords('timeout', 'timeout must be at least 30 seconds')).toBe('Timeout must be at least 30 seconds.');
    expect(inWords('webhook_url', 'webhook_url must be an http(s) URL')).toBe('Webhook URL must be an http(s) URL.');
    expect(inWords(['id'], 'Invalid UUID')).toBe('ID must be an id of the form 123e4567-e89b-12d3-a456-426614174000.');
    expect(inWords('prompt', 'Invalid input: expected string, received undefined')).toBe('Prompt is required.');
  });

  it('leaves a message about something else as it is, as a sentence', () => {
    expect(inWords('allowed_origins.0', 'not allowed here')).toBe('Not allowed here.');
    expect(inWords('name', 'Use letters, digits and _ only.')).toBe('Use letters, digits and _ only.');
    expect(inWords('', 'something went wrong')).toBe('Something went wrong.');
  });
});
