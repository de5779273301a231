import type { Locator } from 'playwright-core';
import { agentToolInputs, type FORM_FIELD_TYPES } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { pageLine } from './navigation.ts';
import { defineTool, ToolError, type AgentTool, type ToolOutcome } from './registry.ts';
import { snapshotText } from './snapshot.ts';
import { locateTarget, type Located, type TargetArgs } from './targets.ts';

type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** How long an action waits for its element to be there, visible and not covered. */
export const ACTION_TIMEOUT_MS = 5_000;

/**
 * Run an action on the element a target names (a ref or a unique CSS selector). A timeout means
 * the element is not there as the snapshot saw it (gone, hidden, covered): the agent is told to
 * look again.
 */
export async function onElement(
  kit: ToolKit,
  sessionId: string,
  args: TargetArgs,
  act: (target: Locator) => Promise<unknown>,
): Promise<Located> {
  const page = await kit.browsers.page(sessionId);
  const located = await locateTarget(kit, sessionId, page, args);
  try {
    await act(located.locator);
  } catch (err) {
    const line = (err as Error).message.split('\n')[0]!;
    if (/Timeout \d+ms exceeded/.test(line)) {
      throw new ToolError(
        `${located.label} (${located.given}) could not be used within ${ACTION_TIMEOUT_MS / 1000} s: it is gone, hidden, covered or not of that kind now. Take a new snapshot`,
      );
    }
    throw new ToolError(`${located.label} (${located.given}): ${line}`);
  }
  return located;
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

/** What a fill-form item is, from its playwright-mcp `type` when given, else from the element itself. */
async function fieldKind(t: Locator, type: FormFieldType | undefined): Promise<'select' | 'check' | 'text'> {
  if (type === 'combobox') return 'select';
  if (type === 'checkbox' || type === 'radio') return 'check';
  if (type === 'textbox' || type === 'slider') return 'text';
  return t.evaluate(
    (el) =>
      el instanceof HTMLSelectElement
        ? 'select'
        : el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
          ? 'check'
          : 'text',
    undefined,
    opts,
  );
}

const TARGET_HELP =
  'The element is `target`: a ref from the latest browser_snapshot or a CSS selector matching exactly one element (`ref` is the older name); `element` says what it is in words, for the session log.';

/** browser_click, browser_hover, browser_type, browser_select_option, browser_fill_form, browser_press_key. */
export function inputTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_click',
      description: `Click an element. ${TARGET_HELP} doubleClick for a double click, button for the right or middle one, modifiers for keys held (Alt, Control, ControlOrMeta, Meta, Shift).`,
      input: agentToolInputs.browser_click,
      async run({ session_id, doubleClick, button, modifiers, snapshot, ...where }) {
        const clickOpts = { ...opts, ...(button ? { button } : {}), ...(modifiers ? { modifiers } : {}) };
        const { label, given } = await onElement(kit, session_id, where, (t) =>
          doubleClick ? t.dblclick(clickOpts) : t.click(clickOpts),
        );
        const what = `${doubleClick ? 'Double-clicked' : 'Clicked'}${button && button !== 'left' ? ` (${button} button)` : ''}${modifiers?.length ? ` with ${modifiers.join('+')}` : ''} ${label}`;
        return afterAction(kit, session_id, what, `${what} (${given})`, snapshot);
      },
    }),
    defineTool({
      name: 'browser_hover',
      description: `Move the mouse over an element (menus that open on hover, tooltips). ${TARGET_HELP}`,
      input: agentToolInputs.browser_hover,
      async run({ session_id, snapshot, ...where }) {
        const { label, given } = await onElement(kit, session_id, where, (t) => t.hover(opts));
        return afterAction(kit, session_id, `Hovered over ${label}`, `Hovered over ${label} (${given})`, snapshot);
      },
    }),
    defineTool({
      name: 'browser_type',
      description: `Type text into an editable element (it replaces what the field held); with submit, press Enter after; with slowly, one key at a time (for pages that react to each key). ${TARGET_HELP}`,
      input: agentToolInputs.browser_type,
      async run({ session_id, text, submit, slowly, snapshot, ...where }) {
        const { label, given } = await onElement(kit, session_id, where, async (t) => {
          await t.fill(slowly ? '' : text, opts);
          // Key by key, with each key's events, as a person types; the per-key delay keeps pages
          // that debounce input seeing separate keys. Bounded by the schema's 2,000 characters.
          if (slowly) await t.pressSequentially(text, { delay: 20, timeout: ACTION_TIMEOUT_MS + text.length * 40 });
          if (submit) await t.press('Enter', opts);
        });
        // The text itself stays out of the log and the answer: it can be a password.
        const what = `Typed ${text.length} characters${slowly ? ' one by one' : ''} into ${label}${submit ? ' and pressed Enter' : ''}`;
        return afterAction(kit, session_id, what, `${what} (${given})`, snapshot);
      },
    }),
    defineTool({
      name: 'browser_select_option',
      description: `Select one or more options of a select element, by value or label. ${TARGET_HELP}`,
      input: agentToolInputs.browser_select_option,
      async run({ session_id, values, snapshot, ...where }) {
        let chosen: string[] = [];
        const { label, given } = await onElement(
          kit,
          session_id,
          where,
          async (t) => (chosen = await t.selectOption(values, opts)),
        );
        const what = `Selected ${chosen.map((v) => JSON.stringify(v.slice(0, 100))).join(', ') || 'nothing'} in ${label}`;
        return afterAction(kit, session_id, what, `${what} (${given})`, snapshot);
      },
    }),
    defineTool({
      name: 'browser_fill_form',
      description:
        'Fill several fields at once. Each item names its field by `target` (a ref or a CSS selector matching one element; `ref` is the older name) and says it in words by `name` or `element`; `type` (textbox, checkbox, radio, combobox, slider) is read from the page when left out. Text fields get the text, checkboxes and radios "true" or "false", selects (combobox) an option\'s value or label, sliders a number.',
      input: agentToolInputs.browser_fill_form,
      async run({ session_id, fields, snapshot }) {
        const labels: string[] = [];
        for (const f of fields) {
          const { label } = await onElement(kit, session_id, { ...f, element: f.element ?? f.name }, async (t) => {
            const kind = await fieldKind(t, f.type);
            if (kind === 'select') await t.selectOption(f.value, opts);
            else if (kind === 'check') await t.setChecked(f.value === 'true', opts);
            else await t.fill(f.value, opts);
          });
          labels.push(label);
        }
        // Values stay out of the log and the answer, as with browser_type.
        const what = `Filled ${fields.length} field${fields.length === 1 ? '' : 's'}: ${labels.join(', ')}`;
        return afterAction(kit, session_id, what, what, snapshot);
      },
    }),
    defineTool({
      name: 'browser_press_key',
      description:
        'Press a key (Enter, Escape, ArrowDown, Tab, a, or a combination such as Control+a) where the focus is, or in the element `target` names (a ref or a CSS selector matching one element).',
      input: agentToolInputs.browser_press_key,
      async run({ session_id, key, target, element, snapshot }) {
        if (target !== undefined) {
          const { label, given } = await onElement(kit, session_id, { target, element }, (t) => t.press(key, opts));
          return afterAction(
            kit,
            session_id,
            `Pressed ${key} in ${label}`,
            `Pressed ${key} in ${label} (${given})`,
            snapshot,
          );
        }
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
