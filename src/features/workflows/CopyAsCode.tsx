import { getWorkflowCode } from '../../api/workflows/get-workflow-code.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import './workflows.css';

/**
 * The saved workflow as a script to keep (server/workflows/code/), copied as it is fetched: its
 * variables become the script's parameters and its credentials environment variables.
 */
export function CopyAsCode({ id }: { id: string }) {
  return (
    <div className="row copy-as-code" role="group" aria-label="Workflow as code">
      <CopyButton text={() => getWorkflowCode(id, 'puppeteer')} label="Copy as Puppeteer" />
      <CopyButton text={() => getWorkflowCode(id, 'playwright')} label="Copy as Playwright" />
      <span className="hint">The saved workflow as a Node script; variables are its --NAME arguments.</span>
    </div>
  );
}
