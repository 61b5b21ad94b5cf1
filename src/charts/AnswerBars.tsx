// The room's answers as bars on the stage (the projector) and on each student's page after the
// reveal: the layout is answerBars.ts's (d3's scales); this draws it. The right choice, once
// revealed, is marked three ways (a ✓, a green fill and a thick edge), not by colour alone.

import { ANSWER_BARS, answerBarsLayout, answerBarsText } from './answerBars.ts';

export function AnswerBars({
  prompt,
  choices,
  counts,
  answer,
}: {
  prompt: string;
  choices: readonly string[];
  counts: readonly number[];
  /** The right choice's index once revealed, else null. */
  answer: number | null;
}) {
  const l = answerBarsLayout(choices, counts, answer);
  return (
    <svg
      className="answer-bars"
      viewBox={`0 0 ${String(l.width)} ${String(l.height)}`}
      role="img"
      aria-label={answerBarsText(prompt, choices, counts, answer)}
      fontSize={ANSWER_BARS.text}
    >
      {l.rows.map((r) => (
        <g key={r.index}>
          <text x={r.bar.x} y={r.labelY} className="answer-label" fontWeight={r.right ? 700 : 400}>
            {r.right ? `✓ ${r.label}` : r.label}
          </text>
          {/* The whole width, faint: where a bar of every answer would end. */}
          <rect
            x={r.bar.x}
            y={r.bar.y}
            width={ANSWER_BARS.width - ANSWER_BARS.margin.right - r.bar.x}
            height={r.bar.height}
            fill="var(--chart-soft)"
          />
          <rect
            x={r.bar.x}
            y={r.bar.y}
            width={Math.max(r.count > 0 ? 2 : 0, r.bar.width)}
            height={r.bar.height}
            fill={r.right ? 'var(--ok-edge)' : 'var(--series-read)'}
            stroke={r.right ? 'var(--chart-ink)' : 'none'}
            strokeWidth={r.right ? 3 : 0}
          >
            <title>{`${choices[r.index] ?? ''}: ${String(r.count)}`}</title>
          </rect>
          <text
            x={r.valueX}
            y={r.bar.y + r.bar.height * 0.75}
            className="answer-value"
            fontWeight={700}
          >
            {r.value}
          </text>
        </g>
      ))}
    </svg>
  );
}
