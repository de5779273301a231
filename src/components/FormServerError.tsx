/**
 * A form's error that belongs to no one field (react-hook-form's `root.server`): what the server
 * refused and applyIssues could not place at a field. Announced, since it appears after a submit.
 */
export function FormServerError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="notice error" role="alert">
      {message}
    </p>
  );
}
