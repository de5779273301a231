export function PageLoading() {
  return (
    <p className="status" role="status">
      Loading the page…
    </p>
  );
}
