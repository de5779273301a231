import { randomBytes } from 'node:crypto';
import { selectorToPElementSelector, type ChangeStep, type Step as ReplayStep } from '@puppeteer/replay';
import type { Browser, ElementHandle, Frame, Page } from 'puppeteer-core';
import {
  typedFieldActRefusal,
  typedFieldChangeRefusal,
  typedFieldKeyRefusal,
  typedFieldLostRefusal,
  unfocusedFieldRefusal,
  type FieldFocus,
} from '../credentials/typedFieldEdits.ts';
import { againWhenReplaced } from './documentReplaced.ts';
import { frameOfStep } from './stepFrame.ts';

// The fields a run types a kept credential into, in the browser: CredentialOriginGuard types
// through typeInto, which first checks the keys will reach the field, and asks check before each
// step. The decisions are typedFieldEdits.ts's; this reads the focus and the fields.

interface TypedField {
  names: readonly string[];
  /** Held for the run (the browser connection ends with it): the field, in the document it was typed in. */
  handle: ElementHandle<Element>;
  /** performance.timeOrigin of that document: its frame showing another one has navigated away (or not yet come back from the back/forward cache). */
  document: number;
}

/** The current document of a frame, as TypedField.document; NaN once the frame is gone. */
async function documentOf(frame: Frame): Promise<number> {
  try {
    return await againWhenReplaced(() => frame.evaluate(() => performance.timeOrigin));
  } catch (err) {
    if (frame.detached) return NaN;
    throw err;
  }
}

/** Marks the field as the one typed into, in its page: a property the page can neither list by keys nor remove. */
function markField(field: Element, mark: string): void {
  Object.defineProperty(field, mark, { value: true });
}

/** In a frame's page: whether the focus is on `holder`, the element holding a child frame. */
function holdsFocus(holder: Element): boolean {
  let active = holder.ownerDocument.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active === holder;
}

/** Whether the keyboard's keys reach `frame`: every frame around it has the focus on the element holding it. */
async function keysReach(frame: Frame): Promise<boolean> {
  for (let child = frame, parent = frame.parentFrame(); parent; child = parent, parent = parent.parentFrame()) {
    const holder = await child.frameElement();
    if (!holder) return false;
    const held = await holder.evaluate(holdsFocus).finally(() => holder.dispose());
    if (!held) return false;
  }
  return true;
}

/**
 * In the field's page: where the focus is (FieldFocus), after taking it off the field when asked;
 * whether `target` is the field, inside it or around it; and `target`'s text as a fill reads it.
 * Null when the handle no longer holds the marked field: a page back from the back/forward cache
 * can resolve it to another object. Serialized into the page, so it names no inner function (the
 * test build wraps those in a helper the page does not have).
 */
function facts(field: Element, mark: string, target: Element | null, blurEditing: boolean) {
  if (!(field instanceof Element) || !(mark in field)) return null;
  let active = field.ownerDocument.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  // Whether each [node, ancestor] pair holds: the node is the ancestor or inside it, across shadow roots.
  const [activeInField, fieldInActive, targetInField, fieldInTarget] = [
    [active, field],
    [field, active],
    [target, field],
    [field, target],
  ].map(([node, ancestor]) => {
    for (let n: Node | null | undefined = node; n; n = n.parentNode ?? (n as ShadowRoot).host)
      if (n === ancestor) return true;
    return false;
  });
  const editable =
    field.ownerDocument.designMode === 'on' || (active instanceof HTMLElement && active.isContentEditable);
  const editing = activeInField! || (editable && fieldInActive!);
  if (editing && blurEditing && active instanceof HTMLElement) active.blur();
  const text =
    target instanceof HTMLElement && target.isContentEditable
      ? target.innerText
      : target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement
        ? target.value
        : '';
  return { editing, oneLine: active?.localName === 'input', related: targetInField! || fieldInTarget!, text };
}

export class TypedFields {
  private fields: TypedField[] = [];
  /** The name of the property markField sets, unknown to the page. */
  private readonly mark = `browserdeskTyped${randomBytes(8).toString('hex')}`;

  constructor(
    private readonly browser: Browser,
    private readonly page: Page,
  ) {}

  /**
   * Type the kept credentials `names` into this field with `typing`, and keep it from being edited
   * once they are. Refused when the field does not take the focus: the fill types with the
   * keyboard, whose keys go wherever the focus is.
   */
  async typeInto(
    handle: ElementHandle<Element>,
    names: readonly string[],
    typing: () => Promise<unknown>,
  ): Promise<void> {
    // Its document before typing: a change step may navigate as it ends (an asserted navigation).
    const field = { names, handle, document: await documentOf(handle.frame) };
    await handle.evaluate(markField, this.mark);
    await handle.focus();
    if (!(await this.factsOf(field, null, false)).editing || !(await keysReach(handle.frame)))
      throw new Error(unfocusedFieldRefusal(names));
    await typing();
    this.fields.push(field);
  }

  /**
   * Throws when the run may not take `step` because of a field it typed a kept credential into
   * and whose page is still there (typedFieldEdits.ts). Before a change step into another element,
   * takes the focus off such a field: a fill focuses its own element first, and one that cannot
   * take the focus (an inert or hidden field) would otherwise have its text typed into this one.
   */
  async check(step: ReplayStep, timeout: number, typed: string): Promise<void> {
    // A page replaced while it is read (a navigation under way) is read again once the next one is there.
    return againWhenReplaced(() => this.checkNow(step, timeout, typed));
  }

  /** Names of the kept credentials typed into a field whose page is still there: the sealed page rule (credentials/sealedPage.ts) holds while any is. */
  async sealedBy(): Promise<string[]> {
    const live = await againWhenReplaced(() => this.onTheirPages());
    return [...new Set(live.flatMap((f) => f.names))];
  }

  private async checkNow(step: ReplayStep, timeout: number, typed: string): Promise<void> {
    const live = await this.onTheirPages();
    if (!live.length) return;
    if (step.type === 'customStep' && step.name === 'act')
      throw new Error(typedFieldActRefusal([...new Set(live.flatMap((f) => f.names))]));
    if (step.type === 'keyDown') {
      // keyUp types nothing: only a key going down edits a field.
      for (const field of live) {
        const refusal = typedFieldKeyRefusal(step.key, field.names, await this.factsOf(field, null, false));
        if (refusal) throw new Error(refusal);
      }
    }
    if (step.type === 'change') await this.beforeChange(step, live, timeout, typed);
  }

  /** The fields whose document is the one their frame shows now; fields whose frame is gone are forgotten. */
  private async onTheirPages(): Promise<TypedField[]> {
    this.fields = this.fields.filter((f) => !f.handle.frame.detached);
    const shown = await Promise.all(this.fields.map(async (f) => (await documentOf(f.handle.frame)) === f.document));
    return this.fields.filter((_, i) => shown[i]);
  }

  /** facts() of the field; refuses the step (fails closed) when the run cannot read them. */
  private async factsOf(
    field: TypedField,
    target: ElementHandle<Element> | null,
    blurEditing: boolean,
  ): Promise<FieldFocus & { related: boolean; text: string }> {
    const seen = await field.handle.evaluate(facts, this.mark, target, blurEditing).catch(() => null);
    if (!seen) throw new Error(typedFieldLostRefusal(field.names));
    return seen;
  }

  private async beforeChange(step: ChangeStep, live: TypedField[], timeout: number, filled: string): Promise<void> {
    const frame = await frameOfStep(this.browser, this.page, step, timeout);
    // Every element a selector of the step matches now: the one the library ends up filling is one of them.
    const targets = (await Promise.all(step.selectors.map((s) => frame.$(selectorToPElementSelector(s))))).filter(
      (t): t is ElementHandle<Element> => t !== null,
    );
    try {
      for (const field of live) {
        if (field.handle.frame !== frame) continue;
        for (const target of targets) {
          const seen = await this.factsOf(field, target, false);
          const refusal = seen.related ? typedFieldChangeRefusal(field.names, seen.text, filled) : undefined;
          if (refusal) throw new Error(refusal);
        }
      }
    } finally {
      await Promise.all(targets.map((t) => t.dispose().catch(() => undefined)));
    }
    for (const field of live) await this.factsOf(field, null, true);
  }
}
