import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface Tab<K extends string> {
  key: K;
  label: string;
  /** Rendered when the tab is first shown, and kept (hidden) after: what it loads is loaded on demand, once. */
  panel: () => ReactNode;
}

/**
 * The ARIA tabs pattern: one tab in the Tab order, arrows (wrapping), Home and End move focus
 * together with the selection; each panel is labelled by its tab.
 */
export function Tabs<K extends string>({ label, tabs }: { label: string; tabs: readonly Tab<K>[] }) {
  const id = useId();
  const [selected, setSelected] = useState<K>(tabs[0]!.key);
  const [shown, setShown] = useState<ReadonlySet<K>>(() => new Set([tabs[0]!.key]));
  const select = (key: K) => {
    setSelected(key);
    setShown((s) => (s.has(key) ? s : new Set([...s, key])));
  };
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const at = tabs.findIndex((t) => t.key === selected);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!.key;
    select(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  };

  return (
    <div>
      <div className="tabs" role="tablist" aria-label={label}>
        {tabs.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`${id}-tab-${t.key}`}
            aria-selected={selected === t.key}
            aria-controls={`${id}-panel-${t.key}`}
            tabIndex={selected === t.key ? 0 : -1}
            onClick={() => select(t.key)}
            onKeyDown={onTabKey}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.map((t) => (
        <div
          key={t.key}
          role="tabpanel"
          id={`${id}-panel-${t.key}`}
          aria-labelledby={`${id}-tab-${t.key}`}
          hidden={selected !== t.key}
        >
          {shown.has(t.key) && t.panel()}
        </div>
      ))}
    </div>
  );
}
