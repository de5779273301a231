import { Link } from 'react-router';
import type { Flow } from '../../../contract/steps.ts';
import { useCredentials } from '../../api/credentials/get-credentials.ts';
import { missingFiles, needsOf } from './workflow-needs.ts';
import './workflow-needs.css';

export const CREDENTIALS_LINK = '/settings#credentials-title';

/** The app does not scroll to a #fragment after a client-side navigation: bring the section into view once it is drawn. */
function revealWhenShown(id: string, framesLeft = 120): void {
  const el = document.getElementById(id);
  if (el) el.scrollIntoView({ block: 'start' });
  else if (framesLeft > 0) requestAnimationFrame(() => revealWhenShown(id, framesLeft - 1));
}

/**
 * What the chosen workflow needs before it can run, said up front: the files its uploadFile steps
 * pick (checked against the files chosen below) and the stored credentials it types (checked
 * against the server's list, with a link to add a missing one). Nothing when it needs neither.
 */
export function WorkflowNeeds({ flow, files }: { flow: Flow; files: readonly File[] }) {
  const needs = needsOf(flow);
  const credentials = useCredentials(needs.credentials.length > 0);
  if (!needs.files.length && !needs.credentials.length) return null;
  const stored = credentials.isSuccess ? new Set(credentials.data.credentials.map((c) => c.name)) : null;
  const notChosen = missingFiles(needs.files, files);
  const notStored = stored ? needs.credentials.filter((n) => !stored.has(n)) : [];
  const ready = notChosen.length === 0 && stored !== null && notStored.length === 0;
  return (
    <section className={`card workflow-needs${ready ? '' : ' needs-something'}`} aria-labelledby="workflow-needs-title">
      <h2 id="workflow-needs-title">What this workflow needs</h2>
      {needs.files.length > 0 && (
        <>
          <h3 id="workflow-needs-files">
            {needs.files.length === 1 ? 'A file' : `${needs.files.length} files`}, chosen under Files below
          </h3>
          <ul aria-labelledby="workflow-needs-files">
            {needs.files.map((name) => {
              const chosen = !notChosen.includes(name);
              return (
                <li key={name}>
                  <code>{name}</code>{' '}
                  <span className={chosen ? 'need-ok' : 'need-missing'}>{chosen ? '✓ chosen' : 'not chosen yet'}</span>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {needs.credentials.length > 0 && (
        <>
          <h3 id="workflow-needs-credentials">
            {needs.credentials.length === 1 ? 'A stored credential' : `${needs.credentials.length} stored credentials`}
          </h3>
          <ul aria-labelledby="workflow-needs-credentials">
            {needs.credentials.map((name) => (
              <li key={name}>
                <code>{name}</code>{' '}
                {stored === null ? (
                  <span className="status">
                    {credentials.isError ? '(could not check whether it is stored)' : '(checking…)'}
                  </span>
                ) : stored.has(name) ? (
                  <span className="need-ok">✓ stored</span>
                ) : (
                  <>
                    <span className="need-missing">not stored:</span>{' '}
                    <Link to={CREDENTIALS_LINK} onClick={() => revealWhenShown('credentials-title')}>
                      add {name} in Settings
                    </Link>
                  </>
                )}
              </li>
            ))}
          </ul>
          {notStored.length > 0 && (
            <p className="hint">The server refuses to start the run until each one is stored.</p>
          )}
        </>
      )}
    </section>
  );
}
