import { PLACEHOLDER } from '../../contract/placeholders.ts';
import {
  RECORDER_MESSAGE_MAX_BYTES,
  RECORDER_MESSAGES_PER_SECOND,
  RecorderMessage,
  type RecorderState,
} from '../../contract/recorder.ts';
import type { Step } from '../../contract/steps.ts';
import type { Variable } from '../../contract/variables.ts';

/** Flow's own limit (contract/steps.ts): a recording stops adding steps there, and says so. */
export const RECORDER_MAX_STEPS = 1000;
/** How long after a step a navigation of its tab counts as the step's (its assertedEvents). */
const NAVIGATION_WINDOW_MS = 5_000;
const VARIABLE_MAX_CHARS = 64;
const EARLY_KEPT = 16;

/** Where a message came from, as the browser (not the page) says. */
export interface Origin {
  /** The tab's target id. */
  tab: string;
  /** The tab's URL now: Recorder's `target` of a step on any tab but the first. */
  tabUrl: string;
  /** The document the message came from (its element numbers, `seq`, are its own). */
  document: string;
  /** The element's `aria/Name[role="…"]` selector when Chromium finds it alone by those, read on demand. */
  aria?: (seq: number) => Promise<string | undefined>;
}

type Dropped = 'tooBig' | 'malformed' | 'overRate' | 'full' | 'placeholder';
const WHY: Record<Dropped, (n: number) => string> = {
  tooBig: (n) => `${n} message(s) from the page were over ${RECORDER_MESSAGE_MAX_BYTES} bytes and were dropped unread`,
  malformed: (n) => `${n} message(s) from the page were not recorder messages and were dropped`,
  overRate: (n) =>
    `${n} message(s) came faster than ${RECORDER_MESSAGES_PER_SECOND} a second and were dropped: no person types that fast`,
  full: (n) => `${n} step(s) came after the recording reached ${RECORDER_MAX_STEPS} steps and were not recorded`,
  placeholder: (n) =>
    `${n} typed value(s) held {{…}}, which a run would fill from its variables or credentials, and were not recorded`,
};

interface StepMeta {
  tab: string;
  at: number;
}

/** A Recorder step as it is built (steps are loose objects, contract/steps.ts). */
type Built = Record<string, unknown> & { type: string };

/**
 * One recording: the page script's messages (contract/recorder.ts RecorderMessage) turned into a
 * Chrome Recorder flow. Every message is checked (size, rate, shape) before it can become a step;
 * what is dropped is counted and said in the answer's warnings, never thrown. Only step types that
 * act as a person does are ever made: no waitForExpression, no customStep but uploadFile.
 */
export class Recording {
  private readonly steps: Built[] = [];
  private readonly meta: StepMeta[] = [];
  private readonly variables = new Map<string, Variable>();
  /** Each secret field (by its selectors) and the variable it types. */
  private readonly secretFields = new Map<string, string>();
  private readonly dropped = new Map<Dropped, number>();
  /** Aria reads started at a pointer's press, by document and element number, for the click after it. */
  private readonly early = new Map<string, Promise<string | undefined>>();
  private tokens = RECORDER_MESSAGES_PER_SECOND;
  private refilledAt: number;
  recording = true;

  constructor(
    private readonly title: string,
    private readonly mainTab: string,
    private readonly onStep: (step: Step, index: number) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.refilledAt = now();
  }

  /** The start page: Recorder's setViewport and navigate. */
  begin(url: string, viewport?: { width: number; height: number; deviceScaleFactor: number }): void {
    if (viewport)
      this.push(
        {
          type: 'setViewport',
          ...viewport,
          isMobile: false,
          hasTouch: false,
          isLandscape: viewport.width > viewport.height,
        },
        this.mainTab,
      );
    this.push({ type: 'navigate', url, assertedEvents: [{ type: 'navigation', url, title: '' }] }, this.mainTab);
  }

  /**
   * Whether a message just arrived may be taken: within the rate and the size. Asked as it
   * arrives, so a flood costs no memory: what waits for take() is bounded by the rate.
   */
  admit(raw: string): boolean {
    if (!this.recording) return false;
    if (!this.withinRate()) this.drop('overRate');
    else if (raw.length > RECORDER_MESSAGE_MAX_BYTES) this.drop('tooBig');
    else return true;
    return false;
  }

  /** One message from the page: admit() it, then build its steps. Never throws: what cannot be taken is counted. */
  take(raw: string, from: Origin): Promise<void> {
    return this.admit(raw) ? this.build(raw, from) : Promise.resolve();
  }

  /** The steps of an admitted message. */
  async build(raw: string, from: Origin): Promise<void> {
    if (!this.recording) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return this.drop('malformed');
    }
    const checked = RecorderMessage.safeParse(parsed);
    if (!checked.success) return this.drop('malformed');
    const msg = checked.data;
    const where: Built = {
      type: '',
      ...(from.tab === this.mainTab ? {} : { target: from.tabUrl }),
      ...(msg.frame?.length ? { frame: msg.frame } : {}),
    };
    if (msg.kind === 'scroll') {
      const on = msg.selectors ? { selectors: msg.selectors } : {};
      return this.again({ ...where, type: 'scroll', ...on, x: msg.x, y: msg.y }, from.tab, ['x', 'y']);
    }
    if (msg.kind === 'key') {
      this.push({ ...where, type: 'keyDown', key: msg.key }, from.tab);
      this.push({ ...where, type: 'keyUp', key: msg.key }, from.tab);
      return;
    }
    const top = !msg.frame?.length && from.aria;
    const key = `${from.document}:${msg.seq}`;
    if (msg.kind === 'pointer') {
      if (top)
        this.early.set(
          key,
          from.aria!(msg.seq).catch(() => undefined),
        );
      // Presses never clicked (a drag) are forgotten, oldest first.
      if (this.early.size > EARLY_KEPT) this.early.delete(this.early.keys().next().value!);
      return;
    }
    const started = this.early.get(key);
    this.early.delete(key);
    const aria = top ? await (started ?? from.aria!(msg.seq).catch(() => undefined)) : undefined;
    if (!this.recording) return;
    const selectors = [...(aria ? [[aria]] : []), ...msg.selectors];
    switch (msg.kind) {
      case 'click':
        return this.push({ ...where, type: 'click', selectors, offsetX: msg.offsetX, offsetY: msg.offsetY }, from.tab);
      case 'doubleClick':
        return this.doubleClick(
          { ...where, type: 'doubleClick', selectors, offsetX: msg.offsetX, offsetY: msg.offsetY },
          from.tab,
        );
      case 'hover':
        // Hovering the same element again (a menu opened twice in a row) is one step.
        return this.again({ ...where, type: 'hover', selectors }, from.tab, []);
      case 'upload':
        if (/[/\\]/.test(msg.file) || msg.file === '.' || msg.file === '..') return this.drop('malformed');
        return this.push(
          { ...where, type: 'customStep', name: 'uploadFile', parameters: { selectors, file: msg.file } },
          from.tab,
        );
      case 'change': {
        let value: string;
        if (msg.secret) value = `{{${this.secretVariable(msg.selectors, msg.field)}}}`;
        else if (msg.value === undefined) return this.drop('malformed');
        else if (new RegExp(PLACEHOLDER.source).test(msg.value)) return this.drop('placeholder');
        else value = msg.value;
        return this.again({ ...where, type: 'change', selectors, value }, from.tab, ['value']);
      }
    }
  }

  /** A main-frame navigation of a tab: the assertedEvents of the step that caused it, when one just did. */
  navigated(tab: string, url: string): void {
    if (!this.recording) return;
    let i = this.steps.length - 1;
    if (this.steps[i]?.type === 'keyUp') i--;
    const step = this.steps[i];
    const meta = this.meta[i];
    if (!step || !meta || meta.tab !== tab || this.now() - meta.at > NAVIGATION_WINDOW_MS) return;
    if (!['click', 'doubleClick', 'keyDown', 'change'].includes(step.type) || step.assertedEvents) return;
    step.assertedEvents = [{ type: 'navigation', url, title: '' }];
    this.told(i);
  }

  stop(): void {
    this.recording = false;
  }

  state(): RecorderState {
    return {
      flow: { title: this.title, steps: structuredClone(this.steps) as Step[] },
      variables: [...this.variables.values()],
      recording: this.recording,
      warnings: [...this.dropped].map(([why, n]) => WHY[why](n)),
    };
  }

  private withinRate(): boolean {
    const now = this.now();
    this.tokens = Math.min(
      RECORDER_MESSAGES_PER_SECOND,
      this.tokens + ((now - this.refilledAt) / 1000) * RECORDER_MESSAGES_PER_SECOND,
    );
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }

  private drop(why: Dropped): void {
    this.dropped.set(why, (this.dropped.get(why) ?? 0) + 1);
  }

  /** The variable a secret field types: named after the field, the same one each time it is typed into. */
  private secretVariable(selectors: string[][], field: string): string {
    const key = JSON.stringify(selectors);
    const known = this.secretFields.get(key);
    if (known) return known;
    let base = field.replace(/[^A-Za-z0-9_]/g, '_').slice(0, VARIABLE_MAX_CHARS) || 'password';
    if (/^[0-9]/.test(base)) base = `_${base}`;
    let name = base;
    for (let n = 2; this.variables.has(name); n++) name = `${base}_${n}`;
    this.secretFields.set(key, name);
    this.variables.set(name, {
      name,
      type: 'string',
      required: true,
      description: 'Typed into a password field while recording: its value was not recorded',
    });
    return name;
  }

  /**
   * The same action again on the element of the last step (typing again into its field, scrolling
   * on where it scrolled: the same element, or the window): that step takes the new `fields`.
   */
  private again(step: Built, tab: string, fields: readonly string[]): void {
    const i = this.steps.length - 1;
    const last = this.steps[i];
    if (last?.type === step.type && this.meta[i]!.tab === tab && sameElement(last, step)) {
      for (const f of fields) last[f] = step[f];
      this.told(i);
      return;
    }
    this.push(step, tab);
  }

  /**
   * A double click comes after its two clicks: Recorder's doubleClick takes their place. Each click
   * may have come after the hovers that showed its element (hoverScript.ts): those before the first
   * click stay, those the second one repeated go with it.
   */
  private doubleClick(step: Built, tab: string): void {
    const clicks: number[] = [];
    for (let i = this.steps.length - 1; i >= 0 && clicks.length < 2; i--) {
      const s = this.steps[i]!;
      if (s.type === 'click' && sameElement(s, step)) clicks.push(i);
      else if (s.type !== 'hover') break;
    }
    if (clicks.length === 2) {
      this.steps.splice(clicks[1]!);
      this.meta.splice(clicks[1]!);
    }
    this.push(step, tab);
  }

  private push(step: Built, tab: string): void {
    if (this.steps.length >= RECORDER_MAX_STEPS) return this.drop('full');
    this.steps.push(step);
    this.meta.push({ tab, at: this.now() });
    this.told(this.steps.length - 1);
  }

  private told(index: number): void {
    try {
      this.onStep(structuredClone(this.steps[index]) as Step, index);
    } catch {
      // A listener's failure is its own: the recording goes on.
    }
  }
}

const sameElement = (a: Built, b: Built) =>
  JSON.stringify([a.selectors, a.frame, a.target]) === JSON.stringify([b.selectors, b.frame, b.target]);
