import { type Ref } from 'react';
import { hex32, offBy, tornReadLayout, tornText, type TornReadView } from './tornRead.ts';
import type { Size } from './geometry.ts';
import { StageSvg } from './StageSvg.tsx';
import './animations.css';

/**
 * A 64-bit read on a 32-bit CPU as its two halves, each stamped with the step that read it and
 * the step that wrote the word it got, so a read that joins two moments shows it.
 */
export function TornRead({
  view,
  svgRef,
  size,
}: {
  view: TornReadView;
  svgRef?: Ref<SVGSVGElement>;
  /** The box it is drawn in (its viewBox); the rows spread over its height. */
  size?: Size;
}) {
  const { width: W, height: H, rowH, boxW, boxH } = tornReadLayout(size);
  const byHalf = (half: 'hi' | 'lo') => view.halves.find((h) => h.half === half) ?? null;
  const row = (half: 'hi' | 'lo', y: number) => {
    const h = byHalf(half);
    const i = h ? view.halves.indexOf(h) : -1;
    return (
      <g
        className={`half${i === 0 ? ' first' : i === 1 ? ' second' : ''}`}
        data-testid={`half-${half}`}
        transform={`translate(4,${String(y)})`}
      >
        <text className="label" x={0} y={14}>
          {half === 'hi' ? 'high half' : 'low half'}
          {h ? ` (read ${i === 0 ? 'first' : 'second'})` : ''}
        </text>
        <rect
          y={22}
          width={boxW}
          height={boxH}
          rx={6}
          stroke={h ? undefined : '#8a8f98'}
          strokeDasharray={h ? undefined : '3 3'}
        />
        <text className="word" x={boxW / 2} y={22 + boxH / 2 + 7} textAnchor="middle">
          {h ? hex32(h.word) : 'not read yet'}
        </text>
        {h && (
          <>
            <text className="stamp" x={boxW + 12} y={22 + boxH / 2 - 4}>
              read at step {h.readAt + 1}
            </text>
            <text className="stamp" x={boxW + 12} y={22 + boxH / 2 + 16}>
              {h.writtenAt < 0
                ? 'its initial value'
                : `written at step ${String(h.writtenAt + 1)} by ${h.writtenBy ?? '?'}`}
            </text>
          </>
        )}
      </g>
    );
  };
  const first = view.halves[0];
  return (
    <StageSvg
      svgRef={svgRef}
      className="torn-read"
      width={W}
      height={H}
      label={`Torn read: ${tornText(view)}`}
    >
      {row('hi', 0)}
      {row('lo', rowH)}
      {view.formed !== null && first ? (
        <>
          <text className={`verdict${view.torn ? ' torn' : ''}`} x={4} y={2 * rowH + 26}>
            together: {String(view.formed)}
          </text>
          <text className={`verdict${view.torn ? ' torn' : ''}`} x={4} y={2 * rowH + 50}>
            {view.torn ? `torn: ${offBy(view.formed, first.truth)}` : 'one moment: not torn'}
          </text>
          <text className="stamp" x={4} y={2 * rowH + 70}>
            true value at the reads:{' '}
            {[...new Set(view.halves.map((h) => String(h.truth)))].join(' → ')}
          </text>
        </>
      ) : (
        <text className="stamp" x={4} y={2 * rowH + 26}>
          {view.who} reads {view.cell} as two 32-bit loads
        </text>
      )}
    </StageSvg>
  );
}
