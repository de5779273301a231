/** Save `blob` as a file named `filename`, through a temporary object URL. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked a little later: the browser reads the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
