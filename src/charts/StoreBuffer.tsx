import { useLayoutEffect, useRef, useState } from 'react';
import { GROW_MS } from './durations.ts';
import { useReducedMotion } from './motion.ts';
import { trackBoxes } from './storeBuffer.ts';

export interface BufferedStore {
  readonly cell: string;
  readonly value: string;
  readonly memory: string;
}

/**
 * A CPU's store buffer under x86-TSO, between its lane and memory: the stores that only this CPU
 * sees yet, oldest at the top, next to drain into memory. A list, not an SVG, so its text keeps
 * its size however narrow the lane. A new store slides in; when the oldest drains, the others
 * slide up from where they were (each row animated from its old place; with reduced motion
 * nothing moves).
 */
export function StoreBuffer({
  cpu,
  stores,
  colour,
}: {
  cpu: number;
  stores: readonly BufferedStore[];
  colour: string;
}) {
  const reduce = useReducedMotion();
  const texts = stores.map((s) => `${s.cell} = ${s.value}`);
  // Which row is which, derived from the previous render's rows (state set during render, as
  // React has it for information from previous renders).
  const [track, setTrack] = useState<{
    key: string;
    rows: readonly { id: number; text: string }[];
    nextId: number;
  }>({ key: '[]', rows: [], nextId: 0 });
  const key = JSON.stringify(texts);
  if (track.key !== key) {
    const t = trackBoxes(track.rows, texts, track.nextId);
    setTrack({
      key,
      rows: texts.map((text, i) => ({ id: t.ids[i] as number, text })),
      nextId: t.nextId,
    });
  }
  const ids = track.key === key ? track.rows.map((r) => r.id) : texts.map((_, i) => -1 - i);
  const els = useRef(new Map<number, HTMLLIElement>());
  const lastTop = useRef(new Map<number, number>());

  useLayoutEffect(() => {
    const before = lastTop.current;
    lastTop.current = new Map([...els.current].map(([id, el]) => [id, el.offsetTop]));
    if (reduce) return;
    // The Web Animations API leaves no style behind: a row interrupted by the next step is
    // simply where its store now is.
    for (const [id, el] of els.current) {
      const from = before.get(id);
      if (from === undefined) {
        el.animate(
          [
            { transform: 'translateX(2.5rem)', opacity: 0 },
            { transform: 'none', opacity: 1 },
          ],
          { duration: GROW_MS, easing: 'ease-out' },
        );
      } else if (from !== el.offsetTop) {
        el.animate(
          [{ transform: `translateY(${String(from - el.offsetTop)}px)` }, { transform: 'none' }],
          { duration: GROW_MS, easing: 'ease-out' },
        );
      }
    }
  });

  const summary =
    stores.length === 0
      ? `CPU${cpu}'s store buffer: empty`
      : `CPU${cpu}'s store buffer, oldest first: ${stores
          .map((s) => `${s.cell} = ${s.value} (memory holds ${s.memory})`)
          .join('; ')}`;
  return (
    <figure
      className="store-buffer"
      role="img"
      aria-label={summary}
      style={{ borderColor: colour }}
    >
      <figcaption>Store buffer, only CPU{cpu} sees it (top drains first)</figcaption>
      {stores.length === 0 ? (
        <p className="sb-empty">empty: all of CPU{cpu}&rsquo;s stores are in memory</p>
      ) : (
        <ol>
          {stores.map((s, i) => (
            <li
              key={ids[i]}
              ref={(el) => {
                const id = ids[i] as number;
                if (el) els.current.set(id, el);
                else els.current.delete(id);
              }}
              style={{ backgroundColor: `${colour}47` }}
            >
              {s.cell} = {s.value} <span className="sb-memory">(memory: {s.memory})</span>
            </li>
          ))}
        </ol>
      )}
    </figure>
  );
}
