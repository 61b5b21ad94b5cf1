import { type Ref } from 'react';
import { scaleLinear } from 'd3';
import type { Holder, RaceWordView } from './raceWord.ts';
import { raceWordText } from './raceWord.ts';
import { BOX_H, raceWordLayout, WORD_H, WORD_Y } from './raceWordLayout.ts';
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

/**
 * The word the CPUs race on, drawn as the lesson tells it: the word in the middle, under it one
 * box per context with the copy it loaded (stale once the word has moved on), the step's load
 * or store as an arrow, an update a store wiped out fading beside the word, and at the right the
 * adds made against the adds the word counts. Where each part goes: raceWordLayout.ts.
 */
export function RaceWord({ view, colour, size, step, svgRef, describedBy }: RaceWordProps) {
  const { width, height } = size;
  const layout = raceWordLayout(view, size);
  const wordY = WORD_Y;
  const holderOf = (ctx: number): Holder | undefined => view.holders.find((h) => h.ctx === ctx);
  const last = view.last;
  const placed = view.racers.flatMap((r) => {
    const box = layout.racers.find((b) => b.ctx === r.ctx)?.box;
    return box ? [{ ...r, x: box.x, w: box.width }] : [];
  });
  const boxY = layout.racers[0]?.box.y ?? height - BOX_H - 12;
  const wordBox = (k: number) => {
    const b = layout.words[k]?.box ?? { x: 0, width: 0 };
    return { x: b.x, w: b.width };
  };

  const tallyMax = Math.max(1, view.made, view.counted);
  const bar = scaleLinear().domain([0, tallyMax]).range([0, layout.tally.barMax]);
  const lost = view.made - view.counted;
  const tx = layout.tally.x;

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
              {w.value}
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
                  {last.before}
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
