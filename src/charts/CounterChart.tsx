import { type Ref, useLayoutEffect, useRef } from 'react';
import { Hatch, YTicks } from './parts.tsx';
import {
  batchBox,
  counterLayout,
  type GlobalMode,
  landingBox,
  readBoxes,
  readText,
  thresholdNames,
} from './counterLayout.ts';
// Types only: the tween itself loads with d3's transitions (motion.ts).
import type { CounterFrame, CounterTween } from './counterTween.ts';
import { loadTweens, useReducedMotion, useTweens } from './motion.ts';
import { rectOf, type Size } from './geometry.ts';
import type { SumSweep } from './sumSweep.ts';
import { foldShort, sweepShort } from './sweepText.ts';
import { StageSvg } from './StageSvg.tsx';
import './animations.css';

const SWEEP_COLOUR = '#0b3d91';

export interface CounterChartProps {
  /** The per-CPU variable's label ("delta"): the chart's accessible name starts with it. */
  readonly label: string;
  readonly thresholdName?: string;
  readonly slots: readonly number[];
  readonly batch: number | null;
  readonly global: { readonly label: string; readonly value: number | bigint };
  readonly mode: GlobalMode;
  /** The largest |value| over the timeline, so the scale holds still while bars tween. */
  readonly extent: number;
  readonly colour: (cpu: number) => string;
  readonly sweeps: readonly SumSweep[];
  /** The fold the step shown made (its CPU and amount), or null. */
  readonly pour: { readonly cpu: number; readonly amount: number } | null;
  /** The cursor: a pour plays only when the user steps forward onto the fold. */
  readonly step: number;
  readonly svgRef?: Ref<SVGSVGElement>;
  /** The chart's coordinate size (its viewBox): the box it is drawn in, at its aspect. */
  readonly size?: Size;
  /** id of the element holding the chart's full text equivalent (aria-describedby). */
  readonly describedBy?: string;
}

const n = (v: number | bigint) => String(v);

/**
 * The counter as one picture: fbc->count and every CPU's delta on one scale (or fbc->count as a
 * figure when it dwarfs the deltas), a fold's batch pouring from its CPU's bar into the global
 * count, and a running sum's sweep across them with what it has read, its retries and the
 * batches it misses. React renders the final geometry; d3 tweens from the previous one
 * (counterTween.ts).
 */
export function CounterChart({ svgRef, ...p }: CounterChartProps) {
  const reduce = useReducedMotion();
  const tweens = useTweens();
  const globalNumber = Number(p.global.value);
  const l = counterLayout({
    slots: p.slots,
    batch: p.batch,
    global: p.mode === 'bar' ? globalNumber : 0,
    mode: p.mode,
    extent: p.extent,
    ...(p.thresholdName === undefined ? {} : { thresholdName: p.thresholdName }),
    ...(p.size ?? {}),
  });
  const names = thresholdNames(p.thresholdName ?? 'batch', p.batch ?? 0);
  const sweep = p.sweeps.find((s) => s.returned === null) ?? p.sweeps[0] ?? null;
  const position = sweep ? sweep.position : 0;
  const sweepX = l.sweepX[Math.min(position, l.sweepX.length - 1)] ?? 0;
  const sweepLeft = l.sweepX[0] ?? 0;
  // The distance from one slot's bar to the next: room for its label and value.
  const pitch = l.slots.length > 1 ? (l.slots[1]?.x ?? 0) - (l.slots[0]?.x ?? 0) : l.width;

  const bars = useRef<(SVGRectElement | null)[]>([]);
  const globalBar = useRef<SVGRectElement>(null);
  const figure = useRef<SVGTextElement>(null);
  const marker = useRef<SVGGElement>(null);
  const swept = useRef<SVGRectElement>(null);
  const pourEl = useRef<SVGGElement>(null);
  const prev = useRef<CounterFrame | null>(null);
  const tween = useRef<CounterTween | null>(null);

  const pourBox = p.pour ? batchBox(l, p.pour.cpu, p.pour.amount) : null;
  const landBox = p.pour ? landingBox(l, p.pour.amount) : null;

  // After each render, from the frame drawn last to this one. The tween (counterTween.ts) is
  // made once its code has loaded with d3's transitions, and lives as long as the chart.
  useLayoutEffect(() => {
    const was = prev.current;
    const next: CounterFrame = {
      step: p.step,
      bars: l.slots.map((b) => ({ y: b.y, height: b.height })),
      global: { y: l.global.y, height: l.global.height },
      globalValue: p.global.value,
      sweepX,
      sweepLeft,
      position,
      pour: pourBox && landBox ? { from: pourBox, to: landBox } : null,
    };
    prev.current = next;
    if (tweens) {
      tween.current ??= tweens.createCounterTween({
        bars,
        globalBar,
        figure,
        marker,
        swept,
        pour: pourEl,
      });
      tween.current.update(was, next, reduce);
      return;
    }
    // Before the tweens have loaded: the final state at once. React has drawn every bar and the
    // sweep where they end; the figure's number and the pour are the tween's.
    if (figure.current) figure.current.textContent = n(p.global.value);
    pourEl.current?.setAttribute('opacity', '0');
    // A step moves the chart; a redraw for a new box does not.
    if (was && was.step !== p.step && !reduce) loadTweens();
  });
  // A chart that goes stops what its tween set moving.
  useLayoutEffect(
    () => () => {
      tween.current?.destroy();
    },
    [],
  );

  const slotsLeft = l.slots[0]?.x ?? 0;
  const right = l.width - 12;
  const gc = l.globalColumn;
  const folds = sweep?.folds ?? [];
  return (
    <StageSvg
      svgRef={svgRef}
      className="counter-chart"
      width={l.width}
      height={l.height}
      label={chartName(p)}
      describedBy={p.describedBy}
    >
      <Hatch id="counter-over-hatch" />
      <Hatch
        id="counter-missed-hatch"
        fill="#fde2e4"
        stroke="#b00020"
        angle={-45}
        size={6}
        width={2.5}
      />
      <YTicks ticks={l.ticks} x1={slotsLeft - 8} x2={right} />
      {l.plusY !== null && l.minusY !== null && (
        <g className="threshold">
          <line x1={slotsLeft - 8} x2={right} y1={l.plusY} y2={l.plusY} />
          <line x1={slotsLeft - 8} x2={right} y1={l.minusY} y2={l.minusY} />
          <text x={l.thresholdX.plus} y={l.plusY - 4} textAnchor="end">
            {names.plus}
          </text>
          <text x={l.thresholdX.minus} y={l.minusY + 15} textAnchor="end">
            {names.minus}
          </text>
        </g>
      )}
      {sweep && (
        <rect
          ref={swept}
          className="swept"
          data-testid="swept-region"
          x={sweepLeft}
          y={l.top - 6}
          width={Math.max(0, sweepX - sweepLeft)}
          height={l.bottom - l.top + 12}
        />
      )}
      <line
        className="zero-line"
        x1={gc.x - 4}
        x2={gc.x + gc.width + 4}
        y1={l.zeroY}
        y2={l.zeroY}
      />
      <line className="zero-line" x1={slotsLeft - 8} x2={right} y1={l.zeroY} y2={l.zeroY} />
      <line
        className="divider"
        x1={l.sweepX[1]}
        x2={l.sweepX[1]}
        y1={l.top - 8}
        y2={l.bottom + 44}
      />

      {/* The global count: a bar on the same scale, or a figure. */}
      {l.mode === 'bar' ? (
        <rect
          ref={globalBar}
          data-testid="global-bar"
          className="global-bar"
          {...rectOf(l.global)}
        />
      ) : (
        <g data-testid="global-figure">
          <rect className="global-frame" {...rectOf(l.global)} rx={6} />
          <text
            className="global-caption"
            x={gc.x + gc.width / 2}
            y={l.global.y + l.global.height - 10}
            textAnchor="middle"
          >
            not to scale
          </text>
          <text
            ref={figure}
            className="global-value"
            x={gc.x + gc.width / 2}
            y={l.global.y + l.global.height / 2 + 12}
            textAnchor="middle"
          />
        </g>
      )}
      <text className="bar-label" x={gc.x + gc.width / 2} y={l.bottom + 22} textAnchor="middle">
        {p.global.label}
      </text>
      {l.mode === 'bar' && (
        <text className="bar-value" x={gc.x + gc.width / 2} y={l.bottom + 42} textAnchor="middle">
          {n(p.global.value)}
        </text>
      )}

      {l.slots.map((b) => (
        <g key={b.cpu}>
          <rect
            ref={(el) => {
              bars.current[b.cpu] = el;
            }}
            data-testid={`slot-bar-${String(b.cpu)}`}
            className="bar"
            {...rectOf(b)}
            fill={b.over ? 'url(#counter-over-hatch)' : p.colour(b.cpu)}
          />
          <text className="bar-label" x={b.x + b.width / 2} y={l.bottom + 22} textAnchor="middle">
            {l.slots.length <= 6 ? `CPU${String(b.cpu)}` : String(b.cpu)}
          </text>
          {/* Under its bar when it fits the bar's pitch (16 px bold digits: under 10 px each);
              with eight CPUs on a narrow chart the bar's height and the axis say it. */}
          {String(b.value).length * 10 <= pitch && (
            <text className="bar-value" x={b.x + b.width / 2} y={l.bottom + 42} textAnchor="middle">
              {b.value}
            </text>
          )}
        </g>
      ))}

      {/* A fold's batch that the sweep did not count once. */}
      {folds.map((f) => {
        const amount = Number(f.amount);
        const land = landingBox(l, amount);
        const box = batchBox(l, f.cpu, amount);
        const slot = l.slots[f.cpu];
        return (
          <g
            key={`${String(f.cpu)}-${String(f.foldAt)}`}
            data-testid="missed-batch"
            className={`fold-${f.fate}`}
          >
            <rect
              className="missed-mark"
              x={land.x - 4}
              y={land.y}
              width={land.width + 8}
              height={land.height}
              fill="url(#counter-missed-hatch)"
            />
            <text
              className="missed-label"
              x={gc.x + gc.width / 2}
              y={land.y + land.height + 14}
              textAnchor="middle"
            >
              {f.fate === 'twice' ? 'also here' : `+${String(amount)} late`}
            </text>
            {f.fate !== 'twice' && slot && <rect className="missed-ghost" {...rectOf(box)} />}
            <text className="missed-text" x={4} y={40}>
              {foldShort(f)}
            </text>
          </g>
        );
      })}

      {sweep && (
        <>
          <g
            ref={marker}
            data-testid="sweep-marker"
            className="sweep-marker"
            transform={`translate(${String(sweepX)},0)`}
          >
            <line x1={0} x2={0} y1={l.top - 6} y2={l.bottom + 6} stroke={SWEEP_COLOUR} />
            <path
              d={`M -7 ${String(l.top - 14)} L 7 ${String(l.top - 14)} L 0 ${String(l.top - 5)} Z`}
              fill={SWEEP_COLOUR}
            />
          </g>
          {/* What the sum has read (its value) and what it has not read yet. */}
          {readBoxes(l).map((box, i) => {
            const cpu = l.slots[i - 1]?.cpu;
            const r = cpu === undefined ? null : sweep.reads.find((x) => x.cpu === cpu);
            const read =
              i === 0 ? (sweep.global ? n(sweep.global.value) : null) : r ? String(r.value) : null;
            // Passed unread: the sum returned, or read a later CPU (a walk of a CPU mask).
            const skipped =
              read === null &&
              cpu !== undefined &&
              (sweep.returned !== null || sweep.reads.some((x) => x.cpu > cpu));
            return (
              <g key={i} className={read === null ? 'unread' : 'read'}>
                <rect x={box.x} y={box.y} width={box.width} height={box.height} rx={3} />
                <text x={box.x + box.width / 2} y={l.height - 8} textAnchor="middle">
                  {readText(read, box.width, skipped)}
                </text>
              </g>
            );
          })}
          <text className="sweep-status" x={4} y={18}>
            {sweepShort(sweep)}
          </text>
          {sweep.retries > 0 && (
            <g
              data-testid="retry-count"
              className="retry-badge"
              transform={`translate(${String(right - 92)},2)`}
            >
              <rect width={92} height={20} rx={10} />
              <text x={46} y={15} textAnchor="middle">
                retr{sweep.retries === 1 ? 'y' : 'ies'}: {sweep.retries}
              </text>
            </g>
          )}
        </>
      )}

      {p.pour && landBox && (
        <text
          className="pour-note"
          x={gc.x + gc.width / 2}
          y={Math.max(l.top - 2, landBox.y - 6)}
          textAnchor="middle"
        >
          +{p.pour.amount} from CPU{p.pour.cpu}
        </text>
      )}
      {pourBox && (
        <g
          ref={pourEl}
          data-testid="pour"
          className="pour-batch"
          opacity={0}
          transform={`translate(${String(pourBox.x)},${String(pourBox.y)})`}
        >
          <rect width={pourBox.width} height={pourBox.height} fill={p.colour(p.pour?.cpu ?? 0)} />
        </g>
      )}
    </StageSvg>
  );
}

/** The chart's name: the deltas and the batch ("delta: CPU0 31, CPU1 0; batch ±32"). */
function chartName(p: Omit<CounterChartProps, 'svgRef'>): string {
  return `${p.label}: ${p.slots.map((v, k) => `CPU${String(k)} ${String(v)}`).join(', ')}${p.batch === null ? '' : `; ${p.thresholdName ?? 'batch'} ±${String(p.batch)}`}`;
}
