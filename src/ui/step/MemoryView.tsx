import { cpuColour } from '../../charts/palette.ts';
import { lazy, type RefObject, Suspense, useCallback, useMemo, useRef } from 'react';
import { CounterChart } from '../../charts/CounterChart.tsx';
import { globalModeOf } from '../../charts/counterLayout.ts';
import { counterCells, globalPart } from '../../charts/history.ts';
import { executedAt, type Run } from '../../machine/executed.ts';
import { cellValue, elementAddr } from '../../machine/read.ts';
import { RaceWord } from '../../charts/RaceWord.tsx';
import { raceWord, raceWordText } from '../../charts/raceWord.ts';
import { seqWordOf, seqWordText } from '../../charts/seqWord.ts';
import { SlotBars } from '../../charts/SlotBars.tsx';
import { sumSweeps } from '../../charts/sumSweep.ts';
import { counterText } from '../../charts/sweepText.ts';
import { tornRead, tornText } from '../../charts/tornRead.ts';
import { treeOf, treeText } from '../../charts/tree.ts';
import { Kind } from '../../machine/isa.ts';
import { minus } from '../../machine/int64.ts';
import type { Machine } from '../../machine/machine.ts';
import { actorName } from '../../machine/narrate.ts';
import { currentState, type Session } from '../../store/session.ts';
import { ExportButtons } from '../export/ExportButtons.tsx';
import { exportName } from '../export/exportName.ts';
import { COUNTER_W, COUNTER_H } from '../../charts/counterLayout.ts';
import { type BoxSize, useBoxSize } from '../useBoxSize.ts';
import { HeroCaption } from './HeroCaption.tsx';
import { globalCells, perCpuCells } from './view.ts';
import { useStep } from './useStep.ts';

// The sequence word and the torn read each belong to a few entries: they load with the first
// entry that needs them, so a Step link to any other entry does not carry them.
const SeqWord = lazy(() =>
  import('../../charts/SeqWord.tsx').then((m) => ({ default: m.SeqWord })),
);
// The counter tree belongs to percpu-tree (and copies of it).
const TreeChart = lazy(() =>
  import('../../charts/TreeChart.tsx').then((m) => ({ default: m.TreeChart })),
);
const TornRead = lazy(() =>
  import('../../charts/TornRead.tsx').then((m) => ({ default: m.TornRead })),
);

/**
 * The chart's own coordinates for a box on screen: its aspect, at a scale that grows the type
 * with the box (a 900 px wide chart on a projector has larger labels than a 480 px one), never
 * below the chart's designed size.
 */
function fit(box: BoxSize): BoxSize {
  const scale = Math.max(1, Math.min(1.6, box.width / COUNTER_W, box.height / COUNTER_H));
  return {
    width: Math.max(COUNTER_W * 0.75, box.width / scale),
    height: Math.max(COUNTER_H * 0.75, box.height / scale),
  };
}

/** The largest |delta| and |global| over the whole timeline, so a chart's scale holds still. */
function extentsOf(m: Machine, states: readonly Int32Array[]): { slot: number; global: number } {
  const cells = counterCells(m);
  if (!cells) return { slot: 0, global: 0 };
  let slot = 0;
  let global = 0;
  for (const s of states) {
    for (let k = 0; k < cells.slots.count; k++) {
      slot = Math.max(slot, Math.abs(s[elementAddr(cells.slots, k)] as number));
    }
    global = Math.max(global, Math.abs(Number(globalPart(m, s, cells.global).value)));
  }
  return { slot, global };
}

/** The fold the step shown made: its CPU and the amount it added to the global count. */
function pourOf(session: Session, run: Run): { cpu: number; amount: number } | null {
  const cells = counterCells(run.m);
  const last = session.cursor > 0 ? session.steps[session.cursor - 1] : undefined;
  if (!cells || last?.kind !== Kind.Fold) return null;
  const x = executedAt(run, session.cursor - 1);
  const before = session.states[session.cursor - 1] as Int32Array;
  const after = session.states[session.cursor] as Int32Array;
  const amount = Number(minus(cellValue(after, cells.global), cellValue(before, cells.global)));
  return { cpu: x ? x.cpu : last.cpu, amount };
}

/**
 * Globals as a table; the counter as one explaining chart (per-CPU deltas, the global count, a
 * fold's pour, a sum's sweep); sequence words with their low bit; a torn read's two halves.
 * Each chart can be exported as SVG or PNG.
 */
export function MemoryView() {
  const session = useStep((s) => s.session);
  const m = session.instance.machine;
  const s = currentState(session);
  const id = session.scenario.id;
  // The threshold the program declares its deltas are folded at (batch, or nr_files' threshold).
  const batch = m.layout.counter?.batch ?? null;
  const thresholdName = m.layout.counter?.limit ?? 'batch';
  const run: Run = useMemo(
    () => ({ m, states: session.states, events: session.events, cursor: session.cursor }),
    [m, session.states, session.events, session.cursor],
  );
  const extents = useMemo(() => extentsOf(m, session.states), [m, session.states]);
  const sweeps = useMemo(() => sumSweeps(run), [run]);
  const torn = useMemo(() => tornRead(run), [run]);
  const tree = useMemo(() => treeOf(run), [run]);
  // Without per-CPU batches, the picture is the word the CPUs race on (not for a torn read,
  // whose picture is its two halves, nor for the counter tree, drawn as a tree).
  const race = useMemo(
    () => (counterCells(m) || torn || tree ? null : raceWord(run)),
    [m, torn, tree, run],
  );
  const treeRef = useRef<SVGSVGElement>(null);
  const raceRef = useRef<SVGSVGElement>(null);
  const counter = m.layout.counter;
  const cells = counterCells(m);
  // The global part as drawn: fbc->count, or the tagged word while it is in atomic mode.
  const shown = cells ? globalPart(m, s, cells.global) : null;
  const pour = pourOf(session, run);
  const counterRef = useRef<SVGSVGElement>(null);
  const seqRef = useRef<SVGSVGElement>(null);
  const tornRef = useRef<SVGSVGElement>(null);
  const [boxRef, box] = useBoxSize({ width: COUNTER_W, height: COUNTER_H });
  // The sequence strip's width: a narrow one stacks its parts, so that its type stays readable.
  const [seqBoxRef, seqBox] = useBoxSize({ width: COUNTER_W, height: 1 });
  // The sequence words the program declares, each with what it means.
  const words = (m.layout.counter?.sequences ?? []).flatMap(({ cell, kind }) => {
    const c = m.layout.cells.find((x) => x.name === cell);
    return c && !c.perCpu ? [seqWordOf(kind, c.name, c.label, s[c.addr] as number)] : [];
  });
  const file = (chart: string) => exportName(id, chart, session.cursor);
  // An exported figure says what it is: the scenario, the moment, the chart.
  const heading = (chart: string) =>
    `${session.scenario.title} (${id}), step ${String(session.cursor)}: ${chart}`;
  const exportOf = (ref: RefObject<Element | null>, what: string, chart: string, shows: string) => (
    <ExportButtons target={ref} what={what} name={file(chart)} heading={heading(shows)} />
  );
  // Per-CPU words with no counter or shared word to chart them: plain bars, the picture itself
  // (it leads the stage) when there is one word and no torn read beside it.
  const plain = !cells && !race && !tree ? perCpuCells(m, s).filter((c) => !c.isLock) : [];
  // Without the counter chart, a fold still shows on the plain slot bars.
  const folded = session.cursor > 0 && session.steps[session.cursor - 1]?.kind === Kind.Fold;
  return (
    <section className="memory" aria-label="Memory">
      <table>
        <caption>
          Memory
          {m.tso && (
            <span className="hint">
              {' '}
              (what every CPU reads; a store still in a store buffer is in its CPU&rsquo;s lane)
            </span>
          )}
        </caption>
        <tbody>
          {globalCells(m, s).map((c) => (
            <tr
              key={`${c.name}-${String(session.cursor)}`}
              className={
                c.name === cells?.global.name ||
                (race !== null && c.name === counter?.count) ||
                race?.words.some((w) => race.shared && w.label === c.label) === true ||
                words.some((w) => w.name === c.name) ||
                (tree !== null && /^\w+\.(l\d+_\d+|approx)$/.test(c.name))
                  ? `charted sr-only${folded ? ' filled' : ''}`
                  : undefined
              }
            >
              <th scope="row">{c.label}</th>
              <td>{c.value}</td>
            </tr>
          ))}
          {perCpuCells(m, s).map((c) =>
            c.values.map((v, k) => (
              <tr
                key={`${c.name}${k}`}
                // Drawn as bars (the counter's slots, or plain bars without a counter): the
                // chart's labels say it, and this row stays for screen readers.
                className={
                  c.name === cells?.slots.name ||
                  (race !== null && c.name === counter?.deltas) ||
                  (!cells && !race && !c.isLock) ||
                  (tree !== null && c.name === counter?.deltas)
                    ? 'charted sr-only'
                    : undefined
                }
              >
                <th scope="row">
                  CPU{k}&rsquo;s {c.label}
                </th>
                <td>{c.isLock ? (v === 0 ? 'free' : `held by ${actorName(m, s, v - 1)}`) : v}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      {cells && (
        <figure className="counter-figure hero">
          <div className="chart-box" ref={boxRef}>
            <CounterChart
              svgRef={counterRef}
              size={fit(box)}
              describedBy="counter-chart-text"
              label={cells.slots.label}
              thresholdName={thresholdName}
              slots={perCpuCells(m, s).find((c) => c.name === cells.slots.name)?.values ?? []}
              batch={batch}
              global={shown ?? globalPart(m, s, cells.global)}
              mode={globalModeOf(extents.global, extents.slot, batch)}
              extent={
                globalModeOf(extents.global, extents.slot, batch) === 'bar'
                  ? Math.max(extents.slot, extents.global)
                  : extents.slot
              }
              colour={cpuColour}
              sweeps={sweeps}
              pour={pour}
              step={session.cursor}
            />
          </div>
          <HeroCaption id="counter-chart-text">
            {counterText({
              globalLabel: shown?.atomic ? `${shown.label} (atomic mode)` : cells.global.label,
              globalValue: shown?.value ?? 0,
              pour,
              sweeps,
            })}
          </HeroCaption>
          {exportOf(counterRef, 'counter chart', 'slots', 'the counter')}
        </figure>
      )}
      {tree && (
        <figure className="tree-figure hero">
          <div className="chart-box" ref={boxRef}>
            <Suspense fallback={null}>
              <TreeChart
                svgRef={treeRef}
                view={tree}
                colour={cpuColour}
                size={fit(box)}
                describedBy="tree-chart-text"
              />
            </Suspense>
          </div>
          <HeroCaption id="tree-chart-text">{treeText(tree)}</HeroCaption>
          {exportOf(treeRef, 'counter tree chart', 'tree', 'the counter tree')}
        </figure>
      )}
      {race && (
        <figure className="race-figure hero">
          <div className="chart-box" ref={boxRef}>
            <RaceWord
              svgRef={raceRef}
              view={race}
              colour={cpuColour}
              size={fit(box)}
              step={session.cursor}
              describedBy="race-word-text"
            />
          </div>
          <HeroCaption id="race-word-text">{raceWordText(race)}</HeroCaption>
          {exportOf(
            raceRef,
            race.shared ? 'shared variables chart' : 'shared word chart',
            race.shared ? 'variables' : 'word',
            race.shared ? 'the shared variables' : 'the shared word',
          )}
        </figure>
      )}
      {plain.map((c) => (
        <PlainBars
          key={c.name}
          label={c.label}
          values={c.values}
          name={file(c.name)}
          heading={heading(c.label)}
          hero={plain.length === 1 && !torn ? { boxRef, size: fit(box) } : null}
        />
      ))}
      {words.length > 0 && (
        <figure className="seq-figure">
          <div className="seq-box" ref={seqBoxRef}>
            <Suspense fallback={null}>
              <SeqWord svgRef={seqRef} words={words} width={seqBox.width} />
            </Suspense>
          </div>
          {/* The chart says it in words on the strip: the caption is for screen readers. */}
          <figcaption className="sr-only">{words.map(seqWordText).join('. ')}</figcaption>
          {exportOf(seqRef, 'sequence chart', 'sequence', 'the sequence count')}
        </figure>
      )}
      {torn && (
        <figure className="torn-figure hero">
          <div className="chart-box" ref={boxRef}>
            <Suspense fallback={null}>
              <TornRead svgRef={tornRef} view={torn} size={fit(box)} />
            </Suspense>
          </div>
          <HeroCaption id="torn-read-text">{tornText(torn)}</HeroCaption>
          {exportOf(tornRef, 'torn-read chart', 'torn-read', 'the torn read')}
        </figure>
      )}
    </section>
  );
}

/** A per-CPU variable's bars where there is no counter chart (irq-local-rmw's c), exportable. */
function PlainBars({
  label,
  values,
  name,
  heading,
  hero,
}: {
  label: string;
  values: readonly number[];
  name: string;
  heading: string;
  /** The stage's one chart: drawn for the box it fills. */
  hero: { readonly boxRef: (el: Element | null) => void; readonly size: BoxSize } | null;
}) {
  const ref = useRef<HTMLDivElement | null>(null);
  // As the hero, the box the chart is sized to is also what Export draws.
  const boxRef = hero?.boxRef;
  const heroRef = useCallback(
    (el: HTMLDivElement | null) => {
      ref.current = el;
      boxRef?.(el);
    },
    [boxRef],
  );
  const bars = (
    <SlotBars
      label={label}
      values={values}
      batch={null}
      colour={cpuColour}
      {...(hero ? { size: hero.size } : {})}
    />
  );
  return (
    <figure className={hero ? 'slot-figure hero' : 'slot-figure'}>
      {hero ? (
        <div className="chart-box" ref={heroRef}>
          {bars}
        </div>
      ) : (
        <div ref={ref}>{bars}</div>
      )}
      <ExportButtons target={ref} what={`${label} chart`} name={name} heading={heading} />
    </figure>
  );
}
