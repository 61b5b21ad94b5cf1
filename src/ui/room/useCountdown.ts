// Seconds left until a time on the server's clock (the open question's closesAt), ticking once a
// second; 0 when the time has passed.

import { useEffect, useState } from 'react';

export function useCountdown(closesAt: number | null): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (closesAt === null) return;
    const t = setInterval(() => {
      setNow(Date.now());
    }, 250);
    return () => {
      clearInterval(t);
    };
  }, [closesAt]);
  return closesAt === null ? 0 : Math.max(0, Math.ceil((closesAt - now) / 1000));
}
