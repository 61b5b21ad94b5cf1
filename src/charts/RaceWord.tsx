import { type Ref } from 'react';
import { scaleLinear } from 'd3';
import type { Holder, RaceWordView } from './raceWord.ts';
import { raceWordText } from './raceWord.ts';
import './animations.css';

export interface RaceWordProps {
  readonly view: RaceWordView;
  readonly colour: (cpu: number) => string;
  /** The chart's coordinate size (its viewBox): the box it is drawn in. */
  readonly size: { readonly width: number; readonly height: number };
  /** The cursor: a step's arrow and a lost update's fade replay when it changes. */
  readonly step: number;
  readonly svgRef?: Ref<SVGSVGElement>;
  readonly describedBy?: string;
}

const WORD_H = 78;
const BOX_H = 64;

/**
 * The word the CPUs race on, drawn as the lesson tells it: the word in the middle, under it one
 * box per context with the copy it loaded (stale once the word has moved on), the step's load
 * or store as an arrow, an update a store wiped out fading beside the word, and at the right the
 * adds made against the adds the word counts.
 */
export function RaceWord({ view, colour, size, step, svgRef, describedBy }: RaceWordProps) {
  const { width, height } = size;
  const tallyW = Math.min(150, width * 0.28);
  const plotW = width - tallyW - 16;
  const columns = view.words.length;
  const colW = plotW / columns;
  const wordY = 44;
  const boxY = Math.max(wordY + WORD_H + 70, height - BOX_H - 12);
  const holderOf = (ctx: number): Holder | undefined => view.holders.find((h) => h.ctx === ctx);
  const last = view.last;

  // Racers under their word, spread across its column.
  const racers = view.racers;
  const placed = racers.map((r) => {
    const mates = racers.filter((x) => x.word === r.word);
    const i = mates.indexOf(r);
    const slot = colW / mates.length;
    const w = Math.min(170, slot - 12);
    const x = r.word * colW + i * slot + (slot - w) / 2 + 8;
    return { ...r, x, w };
  });
  const wordBox = (k: number) => {
    const w = Math.min(200, colW - 110);
    return { x: k * colW + (colW - w) / 2 + 40, w };
  };

  const tallyMax = Math.max(1, view.made, view.counted);
  const bar = scaleLinear()
    .domain([0, tallyMax])
    .range([0, tallyW - 20]);
  const lost = view.made - view.counted;
  const tx = width - tallyW;

  return (
    <svg
      ref={svgRef}
      className="race-word"
      viewBox={`0 0 ${String(width)} ${String(height)}`}
      role="img"
      aria-label={`The shared word: ${raceWordText(view)}`}
      aria-describedby={describedBy}
      xmlns="http://www.w3.org/2000/svg"
    >
      <rect className="chart-bg" x={0} y={0} width={width} height={height} fill="#ffffff" />
      <defs>
        <marker
          id="race-arrow"
          viewBox="0 0 10 10"
          refX={8}
          refY={5}
          markerWidth={7}
          markerHeight={7}
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head" />
        </marker>
      </defs>
      <text className="title" x={8} y={22}>
        {columns === 1 ? 'The word every CPU updates' : 'Each CPU’s word, and who updates it'}
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
              {w.label}
            </text>
            <text className="word-value" x={b.x + b.w / 2} y={wordY + 60} textAnchor="middle">
              {w.value}
            </text>
            {wiped && (
              // The update the store wiped out: its value, struck through, fading (replayed
              // each time the cursor lands here).
              <g key={step} className="wiped-update" data-testid="wiped-update">
                <text
                  className="wiped-value"
                  x={b.x - 12}
                  y={wordY + 44}
                  textAnchor="end"
                  textDecoration="line-through"
                >
                  {last.before}
                </text>
                <text className="wiped-note" x={b.x - 12} y={wordY + 64} textAnchor="end">
                  update lost
                </text>
              </g>
            )}
          </g>
        );
      })}

      {placed.map((r) => {
        const h = holderOf(r.ctx);
        const acting = last !== null && last.ctx === r.ctx ? last : null;
        const b = wordBox(r.word);
        const cx = r.x + r.w / 2;
        const wx = Math.max(b.x + 16, Math.min(b.x + b.w - 16, cx));
        return (
          <g key={r.ctx} data-testid={`racer-${String(r.ctx)}`}>
            {acting && (
              <g key={step} className={`access ${acting.kind}`}>
                <line
                  x1={acting.kind === 'load' ? wx : cx}
                  y1={acting.kind === 'load' ? wordY + WORD_H + 4 : boxY - 4}
                  x2={acting.kind === 'load' ? cx : wx}
                  y2={acting.kind === 'load' ? boxY - 6 : wordY + WORD_H + 6}
                  markerEnd="url(#race-arrow)"
                  markerStart={acting.kind === 'atomic' ? 'url(#race-arrow)' : undefined}
                />
                <text
                  className="access-label"
                  x={(cx + wx) / 2 + 8}
                  y={(wordY + WORD_H + boxY) / 2 + 5}
                >
                  {acting.kind === 'load'
                    ? `load ${String(acting.before)}`
                    : acting.kind === 'store'
                      ? `store ${String(acting.after)}`
                      : `atomic: ${String(acting.before)} → ${String(acting.after)}`}
                </text>
              </g>
            )}
            <rect
              className={`racer${r.irq ? ' irq' : ''}${h?.stale === true ? ' stale' : ''}`}
              x={r.x}
              y={boxY}
              width={r.w}
              height={BOX_H}
              rx={6}
              stroke={colour(r.cpu)}
            />
            <rect x={r.x} y={boxY} width={8} height={BOX_H} fill={colour(r.cpu)} />
            <text className="racer-name" x={r.x + 16} y={boxY + 22}>
              {r.who}
            </text>
            <text
              className={`racer-copy${h?.stale === true ? ' stale' : ''}`}
              x={r.x + 16}
              y={boxY + 48}
            >
              {h ? `holds ${String(h.value)}${h.stale ? ': stale' : ''}` : 'holds nothing'}
            </text>
          </g>
        );
      })}

      <g className="tally" transform={`translate(${String(tx)},${String(wordY)})`}>
        <text className="tally-label" x={0} y={14}>
          adds made
        </text>
        <rect className="tally-made" x={0} y={20} width={Math.max(1, bar(view.made))} height={16} />
        <text className="tally-value" x={Math.max(1, bar(view.made)) + 4} y={33}>
          {view.made}
        </text>
        <text className="tally-label" x={0} y={58}>
          counted
        </text>
        <rect
          className="tally-counted"
          x={0}
          y={64}
          width={Math.max(1, bar(view.counted))}
          height={16}
        />
        <text className="tally-value" x={Math.max(1, bar(view.counted)) + 4} y={77}>
          {view.counted}
        </text>
        {lost > 0 && (
          <text className="tally-lost" x={0} y={104} data-testid="lost-count">
            {lost} lost
          </text>
        )}
      </g>
    </svg>
  );
}
