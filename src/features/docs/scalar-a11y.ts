/**
 * What axe finds missing in Scalar's rendering (1.72), supplied after it renders. Each fix touches
 * only an element still without it, so running it on every change of the reference is cheap and
 * idempotent; upstream fixes make these no-ops.
 */
export function patchScalarA11y(root: ParentNode): void {
  // The copy button on every code block is an icon alone.
  for (const button of root.querySelectorAll<HTMLButtonElement>('button.scalar-code-copy:not([aria-label])')) {
    button.setAttribute('aria-label', 'Copy code');
  }
  // The authentication's fields are contenteditable "comboboxes" whose list is never announced, and
  // whose <label for> names their wrapper: a one-line text field, named by that label.
  for (const editor of root.querySelectorAll<HTMLElement>('.code-input-lite__editor')) {
    if (editor.getAttribute('role') === 'combobox') editor.setAttribute('role', 'textbox');
    if (editor.hasAttribute('aria-label')) continue;
    const wrapperId = editor.parentElement?.id;
    const label = wrapperId
      ? [...root.querySelectorAll('label')].find((l) => l.htmlFor === wrapperId)?.textContent?.trim()
      : undefined;
    const name = label || editor.dataset.placeholder;
    if (name) editor.setAttribute('aria-label', name);
  }
  // A tag's list of calls sits in a card as tall as the window and scrolls when the tag has more
  // calls than fit (sessions does): a keyboard reaches that scroll only when the list takes focus.
  for (const list of root.querySelectorAll<HTMLElement>('ul.endpoints:not([tabindex])')) {
    list.tabIndex = 0;
  }
  // Its sample key (base64 of a joke) in the empty key field reads like a key already filled in.
  for (const field of root.querySelectorAll<HTMLElement>(
    `[placeholder="${SAMPLE_KEY}"], [data-placeholder="${SAMPLE_KEY}"]`,
  )) {
    if (field.hasAttribute('placeholder')) field.setAttribute('placeholder', 'your API key');
    else field.dataset.placeholder = 'your API key';
  }
}

const SAMPLE_KEY = 'QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT';

/**
 * Keeps patching as Scalar renders more (it renders as one scrolls) and opens its dialogs, which it
 * puts at the end of the body: so the whole document is watched while the reference is shown.
 */
export function watchScalarA11y(root: Document | HTMLElement = document): () => void {
  let queued = 0;
  const run = () => {
    queued = 0;
    patchScalarA11y(root);
  };
  const observer = new MutationObserver(() => {
    queued ||= requestAnimationFrame(run);
  });
  observer.observe(root instanceof Document ? root.body : root, { childList: true, subtree: true });
  run();
  return () => {
    observer.disconnect();
    if (queued) cancelAnimationFrame(queued);
  };
}
