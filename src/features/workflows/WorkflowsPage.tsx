import { Link, useNavigate } from 'react-router';
import type { Workflow } from '../../../contract/workflows.ts';
import { isStatus } from '../../api/errors.ts';
import { useDeleteWorkflow } from '../../api/workflows/delete-workflow.ts';
import { useWorkflows } from '../../api/workflows/get-workflows.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useConfirmedRemoval } from '../../components/useConfirmedRemoval.ts';
import { ImportRecorderButton } from './ImportRecorderButton.tsx';
import type { ImportedFlowState } from './WorkflowEditPage.tsx';

export function WorkflowsPage() {
  const workflows = useWorkflows();
  const navigate = useNavigate();
  const remove = useDeleteWorkflow();
  const removal = useConfirmedRemoval(remove, (w: Workflow) => w.id);

  return (
    <>
      <div className="row spread">
        <h1>Workflows</h1>
        <div className="row">
          <Link className="button" to="/workflows/new">
            New workflow
          </Link>
          <ImportRecorderButton
            onImport={(title, text) =>
              void navigate('/workflows/new', { state: { imported: { title, text } } satisfies ImportedFlowState })
            }
          />
        </div>
      </div>
      <p className="lead">Saved Chrome Recorder flows with the variables a run fills in.</p>
      {workflows.isPending && (
        <p className="status" role="status">
          Loading workflows…
        </p>
      )}
      {workflows.isError &&
        (isStatus(workflows.error, 404) ? (
          <div className="notice warn">
            <p>
              This server has no workflow list (it implements only the spec&apos;s operations). You can still run a
              workflow by its id on the Run page.
            </p>
          </div>
        ) : (
          <ErrorNotice error={workflows.error} title="Could not load the workflows." />
        ))}
      {remove.isError && <ErrorNotice error={remove.error} title="Not deleted." />}
      {workflows.data && workflows.data.items.length === 0 && (
        <p className="card status">
          No workflows yet. Create one, or import a JSON file exported from Chrome&apos;s Recorder panel.
        </p>
      )}
      {workflows.data && workflows.data.items.length > 0 && (
        <div className="card table-wrap">
          <table>
            <caption className="visually-hidden">Saved workflows</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Steps</th>
                <th scope="col">Variables</th>
                <th scope="col" className="hide-narrow">
                  Updated
                </th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {workflows.data.items.map((w) => (
                <tr key={w.id}>
                  <td>
                    <Link to={`/workflows/${w.id}`}>{w.name}</Link>
                  </td>
                  <td>{w.flow.steps.length}</td>
                  <td>{w.variables.map((v) => v.name).join(', ') || '—'}</td>
                  <td className="hide-narrow">{new Date(w.updated_at).toLocaleString()}</td>
                  <td>
                    <div className="row">
                      <Link className="button secondary small" to={`/run?workflow=${w.id}`}>
                        Run<span className="visually-hidden"> {w.name}</span>
                      </Link>
                      <button type="button" className="secondary small danger-quiet" onClick={() => removal.ask(w)}>
                        Delete<span className="visually-hidden"> {w.name}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {workflows.data.next_cursor && <p className="hint">Showing the newest {workflows.data.items.length}.</p>}
        </div>
      )}
      <ConfirmDialog {...removal.dialog} title="Delete this workflow?" confirmLabel="Delete workflow">
        <p>
          <strong>{removal.target?.name}</strong> and its variables will be deleted. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
