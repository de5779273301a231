import { isStatus } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useLaunchSession } from '../../components/useLaunchSession.ts';
import { LauncherForm } from './LauncherForm.tsx';
import { SessionList } from './SessionList.tsx';

export function SessionsPage() {
  const { launch, create } = useLaunchSession();
  return (
    <>
      <h1>Sessions</h1>
      <p className="lead">A live browser you can watch, drive, or connect to with Playwright or Puppeteer.</p>
      {/* Launch first, above the list: one press opens a live browser's page. */}
      <LauncherForm onLaunch={launch} />
      {create.isError && !isStatus(create.error, 422) && (
        <ErrorNotice
          error={create.error}
          title={isStatus(create.error, 429) ? 'Too many sessions are running.' : 'The session did not start.'}
        >
          {create.error instanceof Error &&
            'retryAfter' in create.error &&
            typeof create.error.retryAfter === 'number' && (
              <p>Try again in {create.error.retryAfter} s, or end a session you no longer need.</p>
            )}
        </ErrorNotice>
      )}
      <SessionList />
    </>
  );
}
