import type { CSSProperties, KeyboardEvent } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: string;
}

/** The id of tab `key`'s panel, for the panel's `id` (the tab's `aria-controls` points at it). */
export const tabPanelId = (idBase: string, key: string) => `${idBase}-panel-${key}`;
/** The id of tab `key` itself, for its panel's `aria-labelledby`. */
export const tabId = (idBase: string, key: string) => `${idBase}-tab-${key}`;

/**
 * A row of tabs in the ARIA tabs pattern: only the selected tab is in the tab order, and arrows
 * (wrapping), Home and End move the focus together with the selection. The panels are the caller's,
 * with the ids `tabPanelId` and `tabId` give.
 */
export function TabList<K extends string>({
  idBase,
  label,
  tabs,
  selected,
  onSelect,
  className = 'tabs',
  style,
}: {
  /** From `useId()`: makes the tabs' and panels' ids unique on the page. */
  idBase: string;
  /** The tablist's accessible name. */
  label: string;
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  className?: string;
  style?: CSSProperties;
}) {
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const at = tabs.findIndex((t) => t.key === selected);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!.key;
    onSelect(next);
    document.getElementById(tabId(idBase, next))?.focus();
  };
  return (
    <div className={className} role="tablist" aria-label={label} style={style}>
      {tabs.map((t) => (
        <button
          key={t.key}
          type="button"
          role="tab"
          id={tabId(idBase, t.key)}
          aria-selected={selected === t.key}
          aria-controls={tabPanelId(idBase, t.key)}
          tabIndex={selected === t.key ? 0 : -1}
          onClick={() => onSelect(t.key)}
          onKeyDown={onKeyDown}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
