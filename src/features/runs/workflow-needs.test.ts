import { describe, expect, it } from 'vitest';
import type { Flow } from '../../../contract/steps.ts';
import { missingFiles, needsOf } from './workflow-needs.ts';

const upload = (file: string) => ({
  type: 'customStep' as const,
  name: 'uploadFile' as const,
  parameters: { selectors: [['#f']], file },
});
const change = (value: string) => ({ type: 'change' as const, value, selectors: [['#i']] });

describe('needsOf', () => {
  it('lists the files of uploadFile steps and the credentials change steps type, each once', () => {
    const flow = {
      title: 't',
      steps: [
        upload('report.pdf'),
        change('{{credentials.site_password}}'),
        upload('b.csv'),
        upload('report.pdf'),
        change('{{name}} {{credentials.api_token}}'),
      ],
    } as Flow;
    expect(needsOf(flow)).toEqual({ files: ['report.pdf', 'b.csv'], credentials: ['site_password', 'api_token'] });
  });

  it('is empty for a flow that needs neither', () => {
    expect(needsOf({ title: 't', steps: [{ type: 'navigate', url: 'https://example.com/' }] } as Flow)).toEqual({
      files: [],
      credentials: [],
    });
  });
});

describe('missingFiles', () => {
  it('names the needed files not chosen yet', () => {
    expect(missingFiles(['a.pdf', 'b.csv'], [{ name: 'b.csv' }, { name: 'other.txt' }])).toEqual(['a.pdf']);
  });
});
