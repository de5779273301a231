import { useEffect, useState } from 'react';

export function formatLeft(ms: number): string {
  if (ms <= 0) return 'time is up';
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `${h ? `${h} h ` : ''}${h || m ? `${m} min ` : ''}${sec} s left`;
}

/** Time left before the session's timeout, ticking each second. */
export function TimeLeft({ expiresAt }: { expiresAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return <span data-testid="time-left">{formatLeft(new Date(expiresAt).getTime() - now)}</span>;
}
