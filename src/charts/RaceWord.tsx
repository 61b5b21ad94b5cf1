import { type Ref } from 'react';
import type { Holder, RaceWordView } from './raceWord.ts';
import { raceWordText } from './raceWord.ts';
import { linearScale } from './linearScale.ts';
import {
  accessArrow,
  racerCopy,
  accessLabel,
  BOX_H,
  raceWordLayout,
  STRIP_H,
  STRIP_Y,
  WORD_H,
  WORD_Y,
} from './raceWordLayout.ts';
import type { Size } from './geometry.ts';
import { StageSvg } from './StageSvg.tsx';
import './animations.css';

export interface RaceWordProps {
  readonly view: RaceWordView;
  readonly colour: (cpu: number) => string;
  /** The chart's coordinate size (its viewBox): the box it is drawn in. */
  readonly size: Size;
  /** The cursor: a step's arrow and a lost update's fade replay when it changes. */
  readonly step: number;
  readonly svgRef?: Ref<SVGSVGElement>;
  readonly describedBy?: string;
}

/**
 * The word the CPUs race on, drawn as the lesson tells it: the word in the middle, under it one
 * box per context with the copy it loaded (stale once the word has moved on), the step's load
 * or store as an arrow, an update a store wiped out fading beside the word, and at the right the
 * adds made against the adds the word counts. Under memory tso each racer's box ends in its
 * CPU's store buffer: a buffered store is drawn entering it (memory unchanged), a flush as an
 * arrow from it to the word. Where each part goes: raceWordLayout.ts.
 */
export function RaceWord({ view, colour, size, step, svgRef, describedBy }: RaceWordProps) {
  const { width, height } = size;
  const layout = raceWordLayout(view, size);
  const wordY = WORD_Y;
  const holderOf = (ctx: number): Holder | undefined => view.holders.find((h) => h.ctx === ctx);
  const last = view.last;
  const placed = view.racers.flatMap((r) => {
    const at = layout.racers.find((b) => b.ctx === r.ctx);
    return at ? [{ ...r, x: at.box.x, w: at.box.width, buffer: at.buffer }] : [];
  });
  const boxY = layout.racers[0]?.box.y ?? height - BOX_H - 12;
  const boxH = layout.racers[0]?.box.height ?? BOX_H;
  const wordBox = (k: number) => {
    const b = layout.words[k]?.box ?? { x: 0, width: 0 };
    return { x: b.x, w: b.width };
  };

  const tallyMax = Math.max(1, ...view.tally.map((r) => r.value));
  const bar = linearScale([0, tallyMax], [0, layout.tally.barMax]);
  const tx = layout.tally.x;

  return (
    <StageSvg
      svgRef={svgRef}
      className="race-word"
      width={width}
      height={height}
      label={`${view.shared ? 'The shared variables' : 'The shared word'}: ${raceWordText(view)}`}
      describedBy={describedBy}
      arrowId="race-arrow"
    >
      <text className="title" x={8} y={22}>
        {layout.title}
      </text>

      {view.words.map((w, k) => {
        const b = wordBox(k);
        const wiped = last?.overwrote === true && last.word === k;
        return (
          <g key={w.addr} data-testid={`race-word-${String(k)}`}>
            <rect
              className={`word${wiped ? ' wiped' : ''}`}
              x={b.x}
              y={wordY}
              width={b.w}
              height={WORD_H}
              rx={8}
            />
            <text className="word-label" x={b.x + b.w / 2} y={wordY + 22} textAnchor="middle">
              {layout.words[k]?.label}
            </text>
            <text className="word-value" x={b.x + b.w / 2} y={wordY + 60} textAnchor="middle">
              {w.shown}
            </text>
            {wiped && (
              // The update the store wiped out: its value, struck through, fading (replayed
              // each time the cursor lands here).
              <g key={step} className="wiped-update" data-testid="wiped-update">
                <text
                  className="wiped-value"
                  x={layout.words[k]?.wiped.x}
                  y={wordY + 44}
                  textAnchor="end"
                  textDecoration="line-through"
                >
                  {last.beforeShown}
                </text>
                <text
                  className="wiped-note"
                  x={layout.words[k]?.wiped.x}
                  y={wordY + 64}
                  textAnchor="end"
                >
                  {layout.words[k]?.wiped.note}
                </text>
              </g>
            )}
          </g>
        );
      })}

      {placed.map((r) => {
        const h = holderOf(r.ctx);
        const acting = last !== null && last.ctx === r.ctx ? last : null;
        // The arrow joins the racer and the word the step touched (a CPU may read another's).
        const b = wordBox(acting?.word ?? r.word);
        const arrow = accessArrow(
          layout,
          { x: r.x, y: boxY, width: r.w, height: boxH },
          { x: b.x, y: wordY, width: b.w, height: WORD_H },
          acting ? accessLabel(acting) : '',
        );
        const { cx, wx } = arrow;
        const up = acting !== null && acting.kind !== 'load';
        const buffered = acting?.via === 'buffer' && acting.kind !== 'flush';
        return (
          <g key={r.ctx} data-testid={`racer-${String(r.ctx)}`}>
            {acting && !buffered && (
              <g key={step} className={`access ${acting.kind}`} data-testid="access">
                <line
                  x1={up ? cx : wx}
                  y1={up ? boxY - 4 : wordY + WORD_H + 4}
                  x2={up ? wx : cx}
                  y2={up ? wordY + WORD_H + 6 : boxY - 6}
                  markerEnd="url(#race-arrow)"
                  markerStart={acting.kind === 'atomic' ? 'url(#race-arrow)' : undefined}
                />
                <text
                  className="access-label"
                  x={arrow.label.x}
                  y={arrow.label.y}
                  textAnchor={arrow.label.anchor}
                >
                  {accessLabel(acting)}
                </text>
              </g>
            )}
            {acting && buffered && (
              // A store that waits in the buffer, or a load its buffer answered: no arrow to
              // memory, the label just above the box and the buffer's strip outlined.
              <g key={step} className={`access ${acting.kind} buffered`} data-testid="access">
                <text className="access-label" x={r.x + 4} y={boxY - 8}>
                  {accessLabel(acting)}
                </text>
              </g>
            )}
            <rect
              className={`racer${r.irq ? ' irq' : ''}${h?.stale === true ? ' stale' : ''}`}
              x={r.x}
              y={boxY}
              width={r.w}
              height={boxH}
              rx={6}
              stroke={colour(r.cpu)}
            />
            <rect x={r.x} y={boxY} width={8} height={boxH} fill={colour(r.cpu)} />
            <text className="racer-name" x={r.x + 16} y={boxY + 22}>
              {r.who}
            </text>
            <text
              className={`racer-copy${h?.stale === true ? ' stale' : ''}`}
              x={r.x + 16}
              y={boxY + 48}
            >
              {racerCopy(h, r.w)}
            </text>
            {r.buffer !== null && (
              <g
                className={`store-buffer${acting?.via === 'buffer' ? ' active' : ''}`}
                data-testid={`store-buffer-${String(r.cpu)}`}
              >
                <rect x={r.x + 12} y={boxY + STRIP_Y} width={r.w - 18} height={STRIP_H} rx={4} />
                <text x={r.x + 18} y={boxY + STRIP_Y + 16}>
                  {r.buffer}
                </text>
              </g>
            )}
          </g>
        );
      })}

      <g
        className="tally"
        transform={`translate(${String(tx)},${String(layout.tally.y)})`}
        data-testid="tally"
      >
        {view.tally.map((row, i) => {
          const y = layout.tally.rows[i] ?? 0;
          const w = Math.max(1, bar(row.value));
          return (
            <g key={row.kind} data-testid={`tally-${row.kind}`}>
              <text className="tally-label" x={0} y={y + 14}>
                {row.label}
              </text>
              <rect className={`tally-${row.kind}`} x={0} y={y + 20} width={w} height={16} />
              <text className="tally-value" x={w + 4} y={y + 33}>
                {row.value}
              </text>
            </g>
          );
        })}
        {view.lost > 0 && (
          <text className="tally-lost" x={0} y={layout.tally.lostY} data-testid="lost-count">
            {view.lost} lost
          </text>
        )}
      </g>
    </StageSvg>
  );
}
