import { ErrorNotice } from '../../components/ErrorNotice.tsx';

/**
 * What a settings section says while its data is not there: that it needs a saved API key, that it
 * is loading, or why loading failed.
 */
export function LoadStatus({
  connected,
  query,
  needsKeyTo,
  loading,
  failed,
}: {
  connected: boolean;
  query: { isPending: boolean; isError: boolean; error: unknown };
  /** The end of "Save an API key above to …". */
  needsKeyTo: string;
  loading: string;
  failed: string;
}) {
  return (
    <>
      {!connected && <p className="status">Save an API key above to {needsKeyTo}.</p>}
      {connected && query.isPending && (
        <p className="status" role="status">
          {loading}
        </p>
      )}
      {query.isError && <ErrorNotice error={query.error} title={failed} />}
    </>
  );
}
