import { type CSSProperties, useId } from 'react';
import type { ExecutionGraph as Graph } from '../axiomatic/explain.ts';
import { executionGraphLayout, GRAPH_FONT } from './executionGraph.ts';
import { graphSummary } from './executionGraphText.ts';
import { rectOf } from './geometry.ts';

/**
 * An execution graph (memory lkmm): the events of each thread in a column with program order
 * down it, the initial writes above, rf, co, fr and the dependencies as labelled arrows, and a
 * forbidden execution's cycle drawn over them, its steps numbered as in the list beside it.
 * Each relation has its colour and its dash (never colour alone) and its name on the arrow.
 * The SVG scales to its box; its least size at MIN_SCALE is given to the stylesheet
 * (--xg-min-width, --xg-min-height), which decides where a box scrolls rather than shrink it.
 * Its title and description say what it shows.
 */
/** The smallest scale the graph is drawn at: its event labels stay about 9 px high. */
export const MIN_SCALE = 0.8;

export function ExecutionGraph({ graph, title }: { graph: Graph; title: string }) {
  const l = executionGraphLayout(graph);
  const id = useId();
  return (
    <svg
      className="execution-graph"
      viewBox={`0 0 ${String(l.width)} ${String(l.height)}`}
      preserveAspectRatio="xMidYMid meet"
      style={
        {
          '--xg-min-width': `${String(l.width * MIN_SCALE)}px`,
          '--xg-min-height': `${String(l.height * MIN_SCALE)}px`,
        } as CSSProperties
      }
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{graphSummary(graph)}</desc>
      {l.edges.map((e) => (
        <g
          key={`${e.kind}-${String(e.from)}-${String(e.to)}-${String(e.step)}`}
          className={`xg-edge xg-${e.kind}${e.step !== null ? ' xg-step' : ''}`}
        >
          {e.step !== null && <path className="xg-halo" d={e.d} />}
          <path className="xg-line" d={e.d} />
          <polygon className="xg-arrow" points={e.arrow.map((p) => `${p.x},${p.y}`).join(' ')} />
        </g>
      ))}
      {/* The labels over every line, so no halo or crossing line hides one. */}
      {l.edges.map((e) =>
        e.labelBox ? (
          <g
            key={`${e.kind}-${String(e.from)}-${String(e.to)}-${String(e.step)}`}
            className={`xg-edge xg-${e.kind}${e.step !== null ? ' xg-step' : ''}`}
          >
            <g className="xg-label">
              <rect {...rectOf(e.labelBox)} rx={3} />
              <text
                x={e.labelBox.x + e.labelBox.width / 2}
                y={e.labelBox.y + e.labelBox.height / 2}
                dominantBaseline="central"
                textAnchor="middle"
                fontSize={GRAPH_FONT.edgeSize}
              >
                {e.label}
              </text>
            </g>
          </g>
        ) : null,
      )}
      {/* After the edges: arrows from the initial writes cross the threads' names. */}
      {l.columns.map((c) => (
        <text key={c.thread} className="xg-column" x={c.x} y={c.y} textAnchor="middle">
          P{c.thread}
        </text>
      ))}
      {l.nodes.map((n) => (
        <g key={n.id} className={`xg-node xg-${n.kind}${n.inCycle ? ' xg-in-cycle' : ''}`}>
          <rect {...rectOf(n)} rx={n.kind === 'init' ? 10 : 4} />
          <text
            x={n.x + n.width / 2}
            y={n.y + (n.tags ? 15 : n.height / 2)}
            dominantBaseline="central"
            textAnchor="middle"
            fontSize={GRAPH_FONT.size}
          >
            {n.label}
          </text>
          {n.tags && (
            <text
              className="xg-tags"
              x={n.x + n.width / 2}
              y={n.y + 30}
              dominantBaseline="central"
              textAnchor="middle"
              fontSize={GRAPH_FONT.size - 2}
            >
              {n.tags}
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}
