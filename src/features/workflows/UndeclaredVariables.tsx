/** The flow's `{{…}}` names with no variable yet, and one button that declares them all. */
export function UndeclaredVariables({ names, onAdd }: { names: string[]; onAdd: () => void }) {
  if (names.length === 0) return null;
  const listed = names.map((n) => `{{${n}}}`).join(', ');
  return (
    <div className="notice warn row spread" role="status">
      <span>
        The flow uses <code>{listed}</code> but {names.length === 1 ? 'it is' : 'they are'} not declared yet.
      </span>
      <button type="button" className="secondary small" onClick={onAdd}>
        Add {names.length === 1 ? `variable ${names[0]}` : `${names.length} variables`}
      </button>
    </div>
  );
}
