/**
 * Where a key comes from (README, "First start and API keys"): a new user's first question on
 * this page. The server never sends a key back, so this can only say where to look.
 */
export function ApiKeySource() {
  return (
    <>
      Sent in the X-API-Key header of every request. On its first start the server writes a key to{' '}
      <code>DATA_DIR/api-key</code> on its machine (unless <code>BROWSERDESK_API_KEY</code> is set);{' '}
      <code>npm run keys -- create NAME</code> there makes another, shown once.
    </>
  );
}
