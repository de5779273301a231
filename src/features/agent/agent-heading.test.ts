import { describe, expect, it } from 'vitest';
import { agentHeading } from './agent-heading.ts';

describe('agentHeading', () => {
  it('names the workflow after "Agent:" once, whatever its own name starts with', () => {
    expect(agentHeading('More information')).toBe('Agent: More information');
    expect(agentHeading('Agent: open info')).toBe('Agent: open info');
    expect(agentHeading('agent:open info')).toBe('agent:open info');
    expect(agentHeading('Agents of change')).toBe('Agent: Agents of change');
    expect(agentHeading(null)).toBe('Agent');
    expect(agentHeading('  ')).toBe('Agent');
  });
});
