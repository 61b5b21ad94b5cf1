import { select } from 'd3';
import { useLayoutEffect, useRef, useState } from 'react';
import { GROW_MS, useReducedMotion } from './motion.ts';
import { bufferBoxes, trackBoxes } from './storeBuffer.ts';

const W = 320;
/** The title line. */
const TOP = 20;
const ROW = 22;

export interface BufferedStore {
  readonly cell: string;
  readonly value: string;
  readonly memory: string;
}

/**
 * A CPU's store buffer under x86-TSO, between its lane and memory: the stores that only this CPU
 * sees yet, oldest at the top, next to drain into memory. A new store slides in at the bottom;
 * when the oldest drains, the others slide up. React owns the SVG; d3 computed the rows and
 * tweens them from where they were (not at all with reduced motion).
 */
export function StoreBuffer({
  cpu,
  stores,
  depth,
  colour,
}: {
  cpu: number;
  stores: readonly BufferedStore[];
  depth: number;
  colour: string;
}) {
  const reduce = useReducedMotion();
  const texts = stores.map((s) => `${s.cell} = ${s.value}`);
  // Which box is which, derived from the previous render's boxes (state set during render, as
  // React has it for information from previous renders).
  const [track, setTrack] = useState<{
    key: string;
    boxes: readonly { id: number; text: string }[];
    nextId: number;
  }>({ key: '[]', boxes: [], nextId: 0 });
  const key = JSON.stringify(texts);
  if (track.key !== key) {
    const t = trackBoxes(track.boxes, texts, track.nextId);
    setTrack({
      key,
      boxes: texts.map((text, i) => ({ id: t.ids[i] as number, text })),
      nextId: t.nextId,
    });
  }
  const boxes = bufferBoxes(
    texts,
    track.key === key ? track.boxes.map((b) => b.id) : texts.map((_, i) => -1 - i),
    depth,
    TOP,
    ROW,
  );
  const els = useRef(new Map<number, SVGGElement>());
  const lastY = useRef(new Map<number, number>());

  useLayoutEffect(() => {
    const before = lastY.current;
    lastY.current = new Map(boxes.map((b) => [b.id, b.y]));
    if (reduce) return;
    for (const b of boxes) {
      const el = els.current.get(b.id);
      if (!el) continue;
      const from = before.get(b.id);
      const g = select(el).interrupt();
      if (from === undefined) {
        g.attr('transform', `translate(40,${String(b.y)})`)
          .attr('opacity', 0)
          .transition()
          .duration(GROW_MS)
          .attr('transform', `translate(0,${String(b.y)})`)
          .attr('opacity', 1);
      } else if (from !== b.y) {
        g.attr('transform', `translate(0,${String(from)})`)
          .transition()
          .duration(GROW_MS)
          .attr('transform', `translate(0,${String(b.y)})`);
      }
    }
  });

  const summary =
    stores.length === 0
      ? `CPU${cpu}'s store buffer: empty`
      : `CPU${cpu}'s store buffer, oldest first: ${stores
          .map((s) => `${s.cell} = ${s.value} (memory holds ${s.memory})`)
          .join('; ')}`;
  const height = TOP + Math.max(1, stores.length) * ROW + 4;
  return (
    <svg
      className="store-buffer"
      viewBox={`0 0 ${W} ${height}`}
      style={{ aspectRatio: `${W} / ${height}` }}
      role="img"
      aria-label={summary}
    >
      <text x={2} y={14} className="sb-label">
        Store buffer, only CPU{cpu} sees it (top drains first)
      </text>
      <rect
        x={1}
        y={TOP - 3}
        width={W - 2}
        height={height - TOP + 1}
        rx={5}
        className="sb-frame"
        stroke={colour}
      />
      {stores.length === 0 && (
        <text x={8} y={TOP + 15} className="sb-empty">
          empty: all of CPU{cpu}&rsquo;s stores are in memory
        </text>
      )}
      {boxes.map((b, i) => (
        <g
          key={b.id}
          ref={(el) => {
            if (el) els.current.set(b.id, el);
            else els.current.delete(b.id);
          }}
          transform={`translate(0,${String(b.y)})`}
        >
          <rect
            x={4}
            y={0}
            width={W - 8}
            height={b.height}
            rx={3}
            fill={colour}
            className="sb-entry"
          />
          <text x={10} y={b.height / 2 + 5} className="sb-text">
            {b.text}
            <tspan className="sb-memory">{`  (memory: ${stores[i]?.memory ?? ''})`}</tspan>
          </text>
        </g>
      ))}
    </svg>
  );
}
