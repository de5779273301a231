// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { patchScalarA11y } from './scalar-a11y.ts';

// The shapes Scalar 1.72 renders (trimmed to what the patch reads).
const html = `
  <div class="scalar-code-block"><pre id="p1"><code>curl …</code></pre><button type="button" class="scalar-code-copy" aria-controls="p1"><svg aria-hidden="true"></svg></button></div>
  <table><tr><td><div><label for="w1">Name</label>: </div><div><div id="w1" class="code-input-lite"><div class="code-input-lite__editor" contenteditable="true" data-placeholder="api-key" role="combobox" aria-autocomplete="list">X-API-Key</div></div></div></td></tr>
  <tr><td><div><div id="w2" class="code-input-lite"><div class="code-input-lite__editor" contenteditable="true" data-placeholder="Token" role="combobox"></div></div></div></td></tr></table>
  <input type="text" class="scalar-password-input" placeholder="QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT">
  <ul class="endpoints" aria-label="sessions endpoints"><li><a href="#a">GET /sessions</a></li></ul>
`;

describe("Scalar's accessibility patch", () => {
  it('names the icon buttons and the auth fields', () => {
    document.body.innerHTML = html;
    patchScalarA11y(document.body);
    expect(document.querySelector('button.scalar-code-copy')!.getAttribute('aria-label')).toBe('Copy code');
    const [named, unlabelled] = document.querySelectorAll('.code-input-lite__editor');
    expect(named!.getAttribute('role')).toBe('textbox');
    expect(named!.getAttribute('aria-label')).toBe('Name');
    expect(unlabelled!.getAttribute('aria-label')).toBe('Token');
    expect(document.querySelector('input.scalar-password-input')!.getAttribute('placeholder')).toBe('your API key');
    // A tag's list of calls may scroll inside its card: the keyboard reaches it.
    expect(document.querySelector<HTMLElement>('ul.endpoints')!.tabIndex).toBe(0);
  });

  it('leaves what already has a name, and can run again', () => {
    document.body.innerHTML = html.replace(
      'class="scalar-code-copy"',
      'class="scalar-code-copy" aria-label="Copy the example"',
    );
    patchScalarA11y(document.body);
    patchScalarA11y(document.body);
    expect(document.querySelector('button.scalar-code-copy')!.getAttribute('aria-label')).toBe('Copy the example');
    expect(document.querySelector('.code-input-lite__editor')!.getAttribute('aria-label')).toBe('Name');
  });
});
