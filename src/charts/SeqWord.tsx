import { type Ref, useLayoutEffect, useRef } from 'react';
import { loadTweens, useReducedMotion, useTweens } from './motion.ts';
import {
  BITS,
  meaningLines,
  SEQ_BIT,
  SEQ_BIT_GAP,
  seqLabel,
  seqWordGeometry,
  seqWordStacked,
  type SeqWordView,
} from './seqWord.ts';
import { StageSvg } from './StageSvg.tsx';
import './animations.css';

const BIT = SEQ_BIT;
const FLIP_MS = 450;

/**
 * Sequence-like words drawn with their low bits: a bit that changes flips over, and the low bit of
 * fbc->sequence is named ("odd: a sum is in flight"), so a bump by 2 (a fold) and the sum's
 * own set and clear of the low bit look different. `width`, the px the strip is drawn in, picks
 * the stacked strip where the wide one's type would be too small to read.
 */
export function SeqWord({
  words,
  width,
  svgRef,
}: {
  words: readonly SeqWordView[];
  width: number;
  svgRef?: Ref<SVGSVGElement>;
}) {
  const reduce = useReducedMotion();
  const tweens = useTweens();
  const bits = useRef(new Map<string, SVGGElement>());
  const prev = useRef(new Map<string, string>());
  useLayoutEffect(() => {
    for (const w of words) {
      const was = prev.current.get(w.name);
      // Before the tweens have loaded (motion.ts), a bit shows its new value at once.
      if (!tweens && !reduce && was !== undefined && was !== w.bits) loadTweens();
      for (let i = 0; i < BITS; i++) {
        const el = bits.current.get(`${w.name}-${String(i)}`);
        if (!el) continue;
        if (!tweens) {
          el.removeAttribute('transform');
          continue;
        }
        const s = tweens.select(el).interrupt();
        const cx = 0;
        const cy = BIT / 2;
        s.attr('transform', null);
        if (!reduce && was !== undefined && was[i] !== w.bits[i]) {
          // The bit turns over: squeeze to a line and open again with its new value.
          s.transition()
            .duration(FLIP_MS)
            .attrTween('transform', () => (t) => {
              const k = Math.abs(Math.cos(Math.PI * t));
              return `translate(${String(cx)},${String(cy)}) scale(1,${k.toFixed(3)}) translate(${String(-cx)},${String(-cy)})`;
            })
            .on('end', function () {
              this.removeAttribute('transform');
            });
        }
      }
      prev.current.set(w.name, w.bits);
    }
  });
  const stacked = seqWordStacked(words.length, width);
  const { W, ROW, NAME_Y, BITS_X, BITS_Y, BITS_BASE, MEANING, LINE, lowBitLabel } = seqWordGeometry(
    words.length,
    stacked,
  );
  const H = ROW * words.length;
  return (
    <StageSvg
      svgRef={svgRef}
      className="seq-word"
      width={W}
      height={H}
      label={words.map((w) => `${w.label} = ${String(w.value)}`).join(', ')}
    >
      {words.map((w, row) => {
        const y = row * ROW;
        return (
          <g key={w.name} transform={`translate(0,${String(y)})`} data-testid={`seq-${w.name}`}>
            <text x={4} y={NAME_Y}>
              <tspan className="word-label">{seqLabel(w.label)} = </tspan>
              <tspan className="word-value">{w.value}</tspan>
            </text>
            <text className="word-label" x={BITS_X - 8} y={BITS_BASE} textAnchor="end">
              …
            </text>
            {Array.from(w.bits).map((b, i) => {
              const low = i === BITS - 1;
              return (
                <g
                  key={i}
                  transform={`translate(${String(BITS_X + i * (BIT + SEQ_BIT_GAP))},${String(BITS_Y)})`}
                >
                  <g
                    className={`bit${low && w.parity ? ' low' : ''}${b === '1' ? ' set' : ''}`}
                    ref={(el) => {
                      if (el) bits.current.set(`${w.name}-${String(i)}`, el);
                    }}
                    data-testid={low ? `low-bit-${w.name}` : undefined}
                  >
                    <rect width={BIT} height={BIT} rx={3} />
                    <text x={BIT / 2} y={19} textAnchor="middle">
                      {b}
                    </text>
                  </g>
                </g>
              );
            })}
            {w.parity && lowBitLabel && (
              <text
                className="word-label"
                x={BITS_X + BITS * (BIT + SEQ_BIT_GAP) + 4}
                y={BITS_BASE}
              >
                ← low bit
              </text>
            )}
            <text
              className={`meaning${w.parity === 'odd' ? ' odd' : ''}`}
              x={MEANING.x}
              y={MEANING.y}
            >
              {meaningLines(w.meaning, stacked).map((line, i) => (
                <tspan key={i} x={MEANING.x} y={MEANING.y + i * LINE}>
                  {line}
                </tspan>
              ))}
            </text>
          </g>
        );
      })}
    </StageSvg>
  );
}
