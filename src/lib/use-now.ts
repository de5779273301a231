import { useEffect, useState } from 'react';

/** The time now, in ms, updated each second: for a clock or an elapsed time that ticks. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}
