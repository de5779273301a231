import { stringify, stripSourceMap, type UserFlow } from '@puppeteer/replay';
import type { ScriptFormat } from '../../../contract/workflowCode.ts';
import type { Workflow } from '../../../contract/workflows.ts';
import { PlaywrightStringifyExtension } from './playwrightScript.ts';
import { BrowserdeskPuppeteerExtension } from './puppeteerScript.ts';
import { credentialEnvNames } from './scriptParameters.ts';

/**
 * A saved workflow as a Node script someone can keep and run without Browserdesk: Puppeteer
 * (@puppeteer/replay's own stringify) or Playwright (our extension of it). Variables are its
 * parameters, credentials environment variables; the workflow's record holds no credential value,
 * so none can reach the script.
 */
export async function workflowScript(workflow: Workflow, format: ScriptFormat): Promise<string> {
  const source = { workflow, credentials: credentialEnvNames(workflow.flow) };
  const extension =
    format === 'puppeteer' ? new BrowserdeskPuppeteerExtension(source) : new PlaywrightStringifyExtension(source);
  // The library's trailing source-map comment maps lines to steps for DevTools; a kept script has no use for it.
  return stripSourceMap(await stringify(workflow.flow as unknown as UserFlow, { extension, indentation: '  ' }));
}

/** A file name for the script: the workflow's name reduced to letters, digits, `-` and `_` (it goes in a header). */
export function scriptFileName(workflow: Pick<Workflow, 'name'>, format: ScriptFormat): string {
  const base =
    workflow.name
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'workflow';
  return `${base}.${format}.js`;
}
