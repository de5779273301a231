import type { Locator } from 'playwright-core';
import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { pageLine } from './navigation.ts';
import { defineTool, ToolError, type AgentTool, type ToolOutcome } from './registry.ts';
import { snapshotText } from './snapshot.ts';

/** How long an action waits for its element to be there, visible and not covered. */
export const ACTION_TIMEOUT_MS = 5_000;

const quoted = (element: string) => JSON.stringify(element.slice(0, 100));

/**
 * Run an action on the element a ref names. A timeout means the element is not there as the
 * snapshot saw it (gone, hidden, covered): the agent is told to look again.
 */
async function onElement(
  kit: ToolKit,
  sessionId: string,
  ref: string,
  element: string,
  act: (target: Locator) => Promise<unknown>,
): Promise<void> {
  const page = await kit.browsers.page(sessionId);
  const pwRef = kit.snapshots.resolve(sessionId, ref);
  try {
    await act(page.locator(`aria-ref=${pwRef}`));
  } catch (err) {
    const line = (err as Error).message.split('\n')[0]!;
    if (/Timeout \d+ms exceeded/.test(line)) {
      throw new ToolError(
        `${quoted(element)} (${ref}) could not be used within ${ACTION_TIMEOUT_MS / 1000} s: it is gone, hidden, covered or not of that kind now. Take a new snapshot`,
      );
    }
    throw new ToolError(`${quoted(element)} (${ref}): ${line}`);
  }
}

/**
 * What an action answers: what it did, where the page is now, and the new snapshot when asked.
 * A click can start a navigation: the page's load is waited for (briefly) before saying where it is.
 */
export async function afterAction(
  kit: ToolKit,
  sessionId: string,
  did: string,
  summary: string,
  snapshot: boolean | undefined,
): Promise<ToolOutcome> {
  const page = await kit.browsers.page(sessionId);
  await page.waitForLoadState('load', { timeout: ACTION_TIMEOUT_MS }).catch(() => undefined);
  const content: ToolOutcome['content'] = [{ type: 'text', text: `${did}. ${await pageLine(page)}` }];
  if (snapshot) content.push({ type: 'text', text: (await snapshotText(kit, sessionId)).text });
  return { content, summary };
}

const opts = { timeout: ACTION_TIMEOUT_MS };

/** browser_click, browser_hover, browser_type, browser_select_option, browser_fill_form, browser_press_key. */
export function inputTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_click',
      description:
        'Click an element by its ref from the latest browser_snapshot. `element` says what it is in words, for the session log.',
      input: agentToolInputs.browser_click,
      async run({ session_id, element, ref, snapshot }) {
        await onElement(kit, session_id, ref, element, (t) => t.click(opts));
        return afterAction(
          kit,
          session_id,
          `Clicked ${quoted(element)}`,
          `Clicked ${quoted(element)} (${ref})`,
          snapshot,
        );
      },
    }),
    defineTool({
      name: 'browser_hover',
      description: 'Move the mouse over an element by its ref (menus that open on hover, tooltips).',
      input: agentToolInputs.browser_hover,
      async run({ session_id, element, ref, snapshot }) {
        await onElement(kit, session_id, ref, element, (t) => t.hover(opts));
        return afterAction(
          kit,
          session_id,
          `Hovered over ${quoted(element)}`,
          `Hovered over ${quoted(element)} (${ref})`,
          snapshot,
        );
      },
    }),
    defineTool({
      name: 'browser_type',
      description:
        'Type text into an editable element (it replaces what the field held) by its ref from the latest browser_snapshot; with submit, press Enter after.',
      input: agentToolInputs.browser_type,
      async run({ session_id, element, ref, text, submit, snapshot }) {
        await onElement(kit, session_id, ref, element, async (t) => {
          await t.fill(text, opts);
          if (submit) await t.press('Enter', opts);
        });
        // The text itself stays out of the log and the answer: it can be a password.
        const what = `Typed ${text.length} characters into ${quoted(element)}${submit ? ' and pressed Enter' : ''}`;
        return afterAction(kit, session_id, what, `${what} (${ref})`, snapshot);
      },
    }),
    defineTool({
      name: 'browser_select_option',
      description: 'Select one or more options of a select element by its ref, by value or label.',
      input: agentToolInputs.browser_select_option,
      async run({ session_id, element, ref, values, snapshot }) {
        let chosen: string[] = [];
        await onElement(kit, session_id, ref, element, async (t) => (chosen = await t.selectOption(values, opts)));
        const what = `Selected ${chosen.map((v) => JSON.stringify(v.slice(0, 100))).join(', ') || 'nothing'} in ${quoted(element)}`;
        return afterAction(kit, session_id, what, `${what} (${ref})`, snapshot);
      },
    }),
    defineTool({
      name: 'browser_fill_form',
      description:
        'Fill several fields at once, each by its ref: text fields get the text, checkboxes and radios "true" or "false", selects an option\'s value or label.',
      input: agentToolInputs.browser_fill_form,
      async run({ session_id, fields, snapshot }) {
        for (const f of fields) {
          await onElement(kit, session_id, f.ref, f.element, async (t) => {
            const kind = await t.evaluate(
              (el) =>
                el instanceof HTMLSelectElement
                  ? 'select'
                  : el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
                    ? 'check'
                    : 'text',
              undefined,
              opts,
            );
            if (kind === 'select') await t.selectOption(f.value, opts);
            else if (kind === 'check') await t.setChecked(f.value === 'true', opts);
            else await t.fill(f.value, opts);
          });
        }
        // Values stay out of the log and the answer, as with browser_type.
        const what = `Filled ${fields.length} field${fields.length === 1 ? '' : 's'}: ${fields.map((f) => quoted(f.element)).join(', ')}`;
        return afterAction(kit, session_id, what, what, snapshot);
      },
    }),
    defineTool({
      name: 'browser_press_key',
      description:
        'Press a key (Enter, Escape, ArrowDown, Tab, a, or a combination such as Control+a) in the page, where the focus is.',
      input: agentToolInputs.browser_press_key,
      async run({ session_id, key, snapshot }) {
        const page = await kit.browsers.page(session_id);
        try {
          await page.keyboard.press(key);
        } catch (err) {
          throw new ToolError(
            `Key ${JSON.stringify(key)} could not be pressed: ${(err as Error).message.split('\n')[0]}`,
          );
        }
        return afterAction(kit, session_id, `Pressed ${key}`, `Pressed ${key}`, snapshot);
      },
    }),
  ];
}
