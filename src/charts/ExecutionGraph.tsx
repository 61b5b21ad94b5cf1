import { type CSSProperties, type KeyboardEvent, useId, useState } from 'react';
import type { ExecutionGraph as Graph } from '../axiomatic/explain.ts';
import { executionGraphLayout, GRAPH_FONT, type GraphControl } from './executionGraph.ts';
import { defaultFolded } from './executionGraphGroups.ts';
import { graphSummary } from './executionGraphText.ts';
import { rectOf } from './geometry.ts';

/**
 * An execution graph (memory lkmm): the events of each thread in a column with program order
 * down it, the initial writes above, rf, co, fr and the dependencies as labelled arrows, and a
 * forbidden execution's cycle drawn over them, its steps numbered as in the list beside it.
 * Each relation has its colour and its dash (never colour alone) and its name on the arrow.
 * A counter's graph boxes each call, handler run, loop and scheduler turn, draws the machinery's
 * events small and grey, and folds its long loops: each fold and each unfolded loop's label is a
 * button (Tab, then Enter or Space), beside the picture rather than in it, since an image's
 * parts are not controls. The SVG scales to its box; its least size at MIN_SCALE is given to
 * the stylesheet (--xg-min-width, --xg-min-height), which decides where a box scrolls rather
 * than shrink it. Its title and description say what it shows, folds included.
 */
/** The smallest scale the graph is drawn at: its event labels stay about 9 px high. */
export const MIN_SCALE = 0.8;

/** The loops the reader folded or unfolded, for the graph they were chosen on. */
interface Toggled {
  readonly graph: Graph;
  readonly keys: ReadonlySet<string>;
}

export function ExecutionGraph({ graph, title }: { graph: Graph; title: string }) {
  const [toggled, setToggled] = useState<Toggled>({ graph, keys: new Set() });
  const keys = toggled.graph === graph ? toggled.keys : new Set<string>();
  const cycle = graph.why?.cycle ?? [];
  const folded = new Set(defaultFolded(graph, cycle));
  for (const k of keys) if (!folded.delete(k)) folded.add(k);
  const l = executionGraphLayout(graph, cycle, folded);
  const id = useId();
  const toggle = (key: string) => {
    const next = new Set(keys);
    if (!next.delete(key)) next.add(key);
    setToggled({ graph, keys: next });
  };
  const picture = (
    <>
      {l.groups.map((gr) => (
        <g key={gr.key} className={`xg-group xg-group-${gr.kind}${gr.quiet ? ' xg-quiet' : ''}`}>
          <rect {...rectOf(gr)} rx={6} />
        </g>
      ))}
      {l.edges.map((e) => (
        <g
          key={`${e.kind}-${String(e.from)}-${String(e.to)}-${String(e.step)}`}
          className={`xg-edge xg-${e.kind}${e.step !== null ? ' xg-step' : ''}${e.quiet ? ' xg-quiet' : ''}`}
        >
          {e.step !== null && <path className="xg-halo" d={e.d} />}
          <path className="xg-line" d={e.d} />
          <polygon className="xg-arrow" points={e.arrow.map((p) => `${p.x},${p.y}`).join(' ')} />
        </g>
      ))}
      {/* The labels over every line, so no halo or crossing line hides one. */}
      {l.groups.map((gr) => (
        <g
          key={gr.key}
          className={`xg-group-label xg-group-${gr.kind}${gr.quiet ? ' xg-quiet' : ''}`}
        >
          <rect {...rectOf(gr.labelBox)} rx={3} />
          <text
            x={gr.labelBox.x + 2}
            y={gr.labelBox.y + gr.labelBox.height / 2}
            dominantBaseline="central"
            fontSize={gr.fontSize}
          >
            {gr.label}
          </text>
        </g>
      ))}
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
          {c.name}
        </text>
      ))}
      {l.nodes.map((n) =>
        n.kind === 'fold' ? null : (
          <g
            key={n.id}
            className={`xg-node xg-${n.kind}${n.inCycle ? ' xg-in-cycle' : ''}${n.quiet ? ' xg-quiet' : ''}`}
          >
            <rect {...rectOf(n)} rx={n.kind === 'init' ? 10 : 4} />
            <text
              x={n.x + n.width / 2}
              y={n.y + (n.tags ? 15 : n.height / 2)}
              dominantBaseline="central"
              textAnchor="middle"
              fontSize={n.quiet ? GRAPH_FONT.quietSize : GRAPH_FONT.size}
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
        ),
      )}
    </>
  );
  const style = {
    '--xg-min-width': `${String(l.width * MIN_SCALE)}px`,
    '--xg-min-height': `${String(l.height * MIN_SCALE)}px`,
  } as CSSProperties;
  const viewBox = `0 0 ${String(l.width)} ${String(l.height)}`;
  const words = (
    <>
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{graphSummary(graph, l.folds)}</desc>
    </>
  );
  // A litmus test's graph has nothing to fold: the whole SVG is the image, as it always was;
  // a counter's is a group of the image and its fold controls.
  const folds = l.controls.length > 0;
  return (
    <svg
      className="execution-graph"
      viewBox={viewBox}
      preserveAspectRatio="xMidYMid meet"
      style={style}
      role={folds ? 'group' : 'img'}
      aria-labelledby={`${id}-title`}
      aria-describedby={folds ? undefined : `${id}-desc`}
    >
      {words}
      {folds ? (
        <g role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
          {picture}
        </g>
      ) : (
        picture
      )}
      {l.controls.map((c) => (
        <Control
          key={c.key}
          control={c}
          node={l.nodes.find((n) => n.kind === 'fold' && n.id === foldNode(l.folds, c.key))}
          onToggle={toggle}
        />
      ))}
    </svg>
  );
}

const foldNode = (folds: readonly { key: string; node: number }[], key: string) =>
  folds.find((f) => f.key === key)?.node;

/**
 * A fold's node ("show") or an unfolded loop's "fold" on its label: a button in the SVG, one
 * React element per loop so the keyboard's focus stays on it when it turns from one to the other.
 */
function Control({
  control: c,
  node,
  onToggle,
}: {
  control: GraphControl;
  node: { label: string; tags: string; inCycle: boolean } | undefined;
  onToggle: (key: string) => void;
}) {
  const press = () => {
    onToggle(c.key);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    press();
  };
  return (
    <g
      className={`xg-control ${c.expanded ? 'xg-unfolded' : 'xg-fold'}${node?.inCycle === true ? ' xg-in-cycle' : ''}`}
      role="button"
      tabIndex={0}
      aria-label={c.name}
      aria-expanded={c.expanded}
      onClick={press}
      onKeyDown={onKeyDown}
    >
      {c.expanded ? (
        <>
          <rect {...rectOf(c)} rx={3} />
          <text
            x={c.x + c.width / 2}
            y={c.y + c.height / 2}
            dominantBaseline="central"
            textAnchor="middle"
            fontSize={GRAPH_FONT.quietSize}
          >
            {c.text}
          </text>
        </>
      ) : (
        <>
          {/* A stack of cards: the turns behind the one in front. */}
          <rect
            className="xg-fold-back"
            x={c.x + 6}
            y={c.y - 6}
            width={c.width}
            height={c.height}
            rx={4}
          />
          <rect
            className="xg-fold-back"
            x={c.x + 3}
            y={c.y - 3}
            width={c.width}
            height={c.height}
            rx={4}
          />
          <rect {...rectOf(c)} rx={4} />
          <text
            x={c.x + c.width / 2}
            y={c.y + 15}
            dominantBaseline="central"
            textAnchor="middle"
            fontSize={GRAPH_FONT.size}
          >
            {node?.label}
          </text>
          <text
            className="xg-tags"
            x={c.x + c.width / 2}
            y={c.y + 30}
            dominantBaseline="central"
            textAnchor="middle"
            fontSize={GRAPH_FONT.quietSize}
          >
            {node?.tags}
          </text>
        </>
      )}
    </g>
  );
}
