// Layout of the room's answers ("Ask the room"): one horizontal bar per choice, its length the
// share of the students who answered that choice. The scale runs to the number who answered,
// not to the largest bar, so one answer of one is a short bar, not a full one: a projector must
// not make one student look like the whole room. d3's band scale places the rows and the lab's
// linear scale (linearScale.ts: d3's scaleLinear, without the colour and number-format code it
// would bring onto every Step link through the d3-scale module Step shares) sizes the bars;
// AnswerBars.tsx renders.

import { scaleBand } from 'd3';
import { linearScale } from './linearScale.ts';
import type { Box } from './geometry.ts';

export const ANSWER_BARS = {
  width: 480,
  /** Per choice: its label's line and its bar. */
  row: 58,
  margin: { top: 6, right: 100, bottom: 6, left: 4 },
  text: 17,
  /** The most characters of a choice drawn; the whole text is in the bar's title and label. */
  labelChars: 44,
} as const;

export interface AnswerRow {
  readonly index: number;
  readonly label: string;
  readonly count: number;
  /** Of those who answered, 0 … 1. */
  readonly share: number;
  /** The right choice, once revealed. */
  readonly right: boolean;
  readonly bar: Box;
  /** Where the label's baseline sits. */
  readonly labelY: number;
  /** "3 · 60 %", drawn after the bar. */
  readonly value: string;
  readonly valueX: number;
}

export interface AnswerBarsLayout {
  readonly width: number;
  readonly height: number;
  readonly answered: number;
  readonly rows: readonly AnswerRow[];
}

/** A choice's text cut to what the chart draws. */
export function shortLabel(text: string, max: number = ANSWER_BARS.labelChars): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function answerBarsLayout(
  choices: readonly string[],
  counts: readonly number[],
  answer: number | null,
): AnswerBarsLayout {
  const { width, row, margin } = ANSWER_BARS;
  const answered = counts.reduce((a, b) => a + b, 0);
  const height = margin.top + margin.bottom + row * choices.length;
  const y = scaleBand<number>()
    .domain(choices.map((_, i) => i))
    .range([margin.top, height - margin.bottom])
    .paddingInner(0);
  const x = linearScale([0, Math.max(1, answered)], [margin.left, width - margin.right]);
  const rows = choices.map((label, index) => {
    const count = counts[index] ?? 0;
    const top = y(index) ?? 0;
    const barTop = top + row * 0.44;
    const barWidth = x(count) - x(0);
    const share = answered === 0 ? 0 : count / answered;
    return {
      index,
      label: shortLabel(label),
      count,
      share,
      right: answer === index,
      labelY: top + row * 0.34,
      bar: { x: x(0), y: barTop, width: barWidth, height: row * 0.42 },
      value: `${String(count)} · ${String(Math.round(share * 100))} %`,
      valueX: x(0) + barWidth + 8,
    };
  });
  return { width, height, answered, rows };
}

/** The chart in words, for screen readers and the live region. */
export function answerBarsText(
  prompt: string,
  choices: readonly string[],
  counts: readonly number[],
  answer: number | null,
): string {
  const answered = counts.reduce((a, b) => a + b, 0);
  const parts = choices.map((c, i) => {
    const n = counts[i] ?? 0;
    return `${c}: ${String(n)}${answer === i ? ' (the answer)' : ''}`;
  });
  return `${prompt} ${String(answered)} answered. ${parts.join('; ')}.`;
}
