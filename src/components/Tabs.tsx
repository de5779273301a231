import { useId, useState, type ReactNode } from 'react';
import { TabList, TabPanel } from './TabList.tsx';

export interface Tab<K extends string> {
  key: K;
  label: string;
  /** Rendered when the tab is first shown, and kept (hidden) after: what it loads is loaded on demand, once. */
  panel: () => ReactNode;
}

/** Tabs with their panels (TabList's keyboard), each panel labelled by its tab. */
export function Tabs<K extends string>({ label, tabs }: { label: string; tabs: readonly Tab<K>[] }) {
  const id = useId();
  const [selected, setSelected] = useState<K>(tabs[0]!.key);
  const [shown, setShown] = useState<ReadonlySet<K>>(() => new Set([tabs[0]!.key]));
  const select = (key: K) => {
    setSelected(key);
    setShown((s) => (s.has(key) ? s : new Set([...s, key])));
  };

  return (
    <div>
      <TabList label={label} idPrefix={id} tabs={tabs} selected={selected} onSelect={select} />
      {tabs.map((t) => (
        <TabPanel key={t.key} idPrefix={id} tabKey={t.key} selected={selected}>
          {shown.has(t.key) && t.panel()}
        </TabPanel>
      ))}
    </div>
  );
}
