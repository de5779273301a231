import type { Page } from '@playwright/test';

/** Replace the flow editor's text from the keyboard (select all, then type), as a person would. */
export async function typeFlow(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Flow (Chrome Recorder JSON)' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

/** The editor's text, line by line as CodeMirror shows it (only the lines drawn: keep the flows short). */
export const editorText = (page: Page) =>
  page.locator('.cm-content .cm-line').evaluateAll((lines) => lines.map((l) => l.textContent ?? '').join('\n'));
