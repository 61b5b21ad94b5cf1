import { type Ref } from 'react';
import { rectOf, type Size } from './geometry.ts';
import { treeText, type TreeView } from './tree.ts';
import { treeLayout, TITLE_Y } from './treeLayout.ts';
import { StageSvg } from './StageSvg.tsx';
import './animations.css';

export interface TreeChartProps {
  readonly view: TreeView;
  readonly colour: (cpu: number) => string;
  /** The chart's coordinate size (its viewBox): the box it is drawn in. */
  readonly size: Size;
  readonly svgRef?: Ref<SVGSVGElement>;
  readonly describedBy?: string;
}

const ROW_NAMES = (level: number, levels: number): string =>
  level === 0 ? 'words' : level === levels - 1 ? 'root' : `level ${String(level)}`;

/**
 * The counter tree as a tree: the per-CPU words at the bottom, the items of each level above,
 * the root (the approximate sum) at the top; the step's add or carry drawn on the node it changed
 * and, for a carry, as an arrow up from the node it came from. Under it, the number line: the
 * accuracy range around the precise sum, and the approximate sum marked inside or outside it.
 * Where each part goes: treeLayout.ts.
 */
export function TreeChart({ view, colour, size, svgRef, describedBy }: TreeChartProps) {
  const { width, height } = size;
  const layout = treeLayout(view, size);
  const b = layout.band;
  const levels = view.levels.length;
  const node = (level: number, index: number) => view.levels[level]?.[index];
  const placed = (level: number, index: number) =>
    layout.nodes.find((p) => p.level === level && p.index === index);
  const carryFrom = view.carry ? placed(view.carry.fromLevel, view.carry.from) : undefined;
  const carryTo = view.carry ? placed(view.carry.level, view.carry.index) : undefined;
  return (
    <StageSvg
      svgRef={svgRef}
      className="tree-chart"
      width={width}
      height={height}
      label={`The counter tree: ${treeText(view)}`}
      describedBy={describedBy}
      arrowId="tree-arrow"
    >
      <text className="title" x={8} y={TITLE_Y}>
        Carries up the tree, batch {view.shape.batch}
      </text>
      {layout.edges.map((e) => (
        <line
          key={`${String(e.from.level)}-${String(e.from.index)}`}
          className="edge"
          x1={e.from.cx}
          y1={e.from.box.y}
          x2={e.to.cx}
          y2={e.to.box.y + e.to.box.height}
        />
      ))}
      {carryFrom && carryTo && (
        <g className="carry" data-testid="tree-carry">
          <line
            x1={carryFrom.cx}
            y1={carryFrom.box.y}
            x2={carryTo.cx}
            y2={carryTo.box.y + carryTo.box.height}
            markerEnd="url(#tree-arrow)"
          />
        </g>
      )}
      {layout.rowLabels.map((r) => (
        <text key={r.level} className="row-label" x={r.x} y={r.y} textAnchor="end">
          {ROW_NAMES(r.level, levels)}
        </text>
      ))}
      {layout.nodes.map((p) => {
        const n = node(p.level, p.index);
        if (!n) return null;
        const changed = n.changed !== 0;
        return (
          <g
            key={`${String(p.level)}-${String(p.index)}`}
            className={changed ? 'node changed' : 'node'}
            data-testid={`tree-node-${String(p.level)}-${String(p.index)}`}
          >
            <rect
              {...rectOf(p.box)}
              rx={4}
              style={p.level === 0 ? { stroke: colour(p.index) } : undefined}
            />
            <text className="node-value" x={p.cx} y={p.box.y + layout.valueDy} textAnchor="middle">
              {n.value}
            </text>
            {p.level === 0 && (
              <text
                className="node-name"
                x={p.cx}
                y={p.box.y + p.box.height + 14}
                textAnchor="middle"
              >
                {n.name}
              </text>
            )}
            {changed && (
              <text
                className="node-delta"
                x={p.box.x + p.box.width}
                y={p.box.y - 4}
                textAnchor="end"
              >
                {n.changed > 0 ? `+${String(n.changed)}` : `−${String(-n.changed)}`}
              </text>
            )}
          </g>
        );
      })}
      <g className={view.inRange ? 'band' : 'band outside'} data-testid="tree-band">
        <text className="band-label" x={b.x0} y={b.rangeLabelY}>
          range: precise − {view.shape.under} to + {view.shape.over}
        </text>
        {view.inFlight !== 0 && (
          <text className="flight-label" x={b.x1} y={b.rangeLabelY} textAnchor="end">
            in flight: {view.inFlight}
          </text>
        )}
        <line className="axis" x1={b.x0} y1={b.y} x2={b.x1} y2={b.y} />
        <rect className="range" x={b.lo} y={b.y - 7} width={Math.max(1, b.hi - b.lo)} height={14} />
        <line className="precise-mark" x1={b.precise} y1={b.y - 10} x2={b.precise} y2={b.y + 10} />
        <text
          className="precise-label"
          x={b.precise}
          y={b.preciseLabelY}
          textAnchor={b.preciseAnchor}
        >
          precise {view.precise}
        </text>
        <path
          className="approx-mark"
          d={`M ${String(b.approx)} ${String(b.y + 2)} l -7 12 h 14 z`}
        />
        <text className="approx-label" x={b.approx} y={b.approxLabelY} textAnchor={b.approxAnchor}>
          approximate {view.approx}
          {view.inRange ? ': inside' : ': OUTSIDE'}
        </text>
      </g>
    </StageSvg>
  );
}
