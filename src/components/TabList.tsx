import type { CSSProperties, KeyboardEvent, ReactNode } from 'react';

/**
 * A row of tabs (the ARIA tabs pattern): one tab in the Tab order, arrows (wrapping), Home and End
 * move focus together with the selection. Tab `k` is `${idPrefix}-tab-${k}` and controls the panel
 * `${idPrefix}-panel-${k}`, which the caller renders where it likes.
 */
export function TabList<K extends string>(props: {
  label: string;
  idPrefix: string;
  tabs: readonly { key: K; label: string }[];
  selected: K;
  onSelect(key: K): void;
  className?: string;
  style?: CSSProperties;
}) {
  const { tabs, selected, idPrefix } = props;
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const at = tabs.findIndex((t) => t.key === selected);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!.key;
    props.onSelect(next);
    document.getElementById(`${idPrefix}-tab-${next}`)?.focus();
  };
  return (
    <div className={props.className ?? 'tabs'} role="tablist" aria-label={props.label} style={props.style}>
      {tabs.map((t) => (
        <button
          key={t.key}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${t.key}`}
          aria-selected={selected === t.key}
          aria-controls={`${idPrefix}-panel-${t.key}`}
          tabIndex={selected === t.key ? 0 : -1}
          onClick={() => props.onSelect(t.key)}
          onKeyDown={onTabKey}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** The panel of tab `tabKey` (ids as TabList gives them), hidden while another tab is chosen. */
export function TabPanel(props: { idPrefix: string; tabKey: string; selected: string; children: ReactNode }) {
  return (
    <div
      role="tabpanel"
      id={`${props.idPrefix}-panel-${props.tabKey}`}
      aria-labelledby={`${props.idPrefix}-tab-${props.tabKey}`}
      hidden={props.selected !== props.tabKey}
    >
      {props.children}
    </div>
  );
}
