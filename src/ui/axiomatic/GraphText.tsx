import type { ExecutionGraph } from '../../axiomatic/explain.ts';
import { edgeRows, RELATION_WORDS } from '../../charts/executionGraphText.ts';

/** The first part of a Why's sentence: the axiom and what breaking it means, without the steps. */
export function axiomWords(g: ExecutionGraph): string {
  const why = g.why;
  if (!why) return '';
  const first = why.cycle[0];
  const cut = first ? why.sentence.indexOf(`. ${first.words}`) : -1;
  return cut > 0 ? `${why.sentence.slice(0, cut)}.` : why.sentence;
}

/** A forbidden execution's cycle, step by step, numbered as on the graph. */
export function CycleSteps({ graph }: { graph: ExecutionGraph }) {
  const why = graph.why;
  if (!why) return null;
  return (
    <section className="xg-why" aria-label="Why the model forbids it">
      <p>
        <strong>Forbidden by {why.axiom}</strong>: {axiomWords(graph).replace(/^[^:]*: /, '')}
      </p>
      {why.cycle.length > 0 && (
        <>
          <ol className="xg-cycle" aria-label="The cycle, step by step">
            {why.cycle.map((s, i) => (
              <li key={`${String(i)}-${s.relation}`}>
                <code>{s.relation}</code> {s.words}
              </li>
            ))}
          </ol>
          <p className="hint">…and so round again: no order of the events can satisfy them all.</p>
        </>
      )}
    </section>
  );
}

/** Every edge of the graph as a table, and what each relation means: the picture as text. */
export function EdgeTable({ graph }: { graph: ExecutionGraph }) {
  const rows = edgeRows(graph);
  return (
    <details className="xg-edges">
      <summary>Every edge, as text ({rows.length})</summary>
      <table>
        <caption className="sr-only">
          The edges of this execution; program order runs down each thread&rsquo;s column
        </caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">Relation</th>
            <th scope="col">To</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>{r.from}</td>
              <td>
                <code>{r.relation}</code>{' '}
                <span className="hint">
                  {RELATION_WORDS[r.relation.replace(/[ei]$/, '') as keyof typeof RELATION_WORDS]},{' '}
                  {r.where}
                </span>
              </td>
              <td>{r.to}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

const KEY: readonly [string, string][] = [
  ['po', 'program order: down each column'],
  ['rf', 'reads from'],
  ['co', 'coherence: the order of one location’s writes'],
  ['fr', 'from-read: the read saw an older write'],
  ['addr', 'addr, data, ctrl: dependencies'],
  ['order', 'what a fence, acquire or release orders'],
];

/**
 * The relations' colours and dashes, each named (labels on the arrows say it too), and for a
 * counter's graph what its boxes, its grey events and its folds are.
 */
export function GraphKey({ graph }: { graph?: ExecutionGraph }) {
  const events = graph?.events ?? [];
  const boxed = events.some((e) => e.frames.some((f) => f.kind === 'call' || f.kind === 'loop'));
  const handler = events.some((e) => e.frames.some((f) => f.kind === 'handler'));
  const scheduler = events.some((e) => e.maker === 'scheduler');
  const hotplug = events.some((e) => e.maker === 'hotplug');
  const looped = events.some((e) => e.frames.some((f) => f.kind === 'loop' && f.turn > 1));
  return (
    <ul className="xg-key" aria-label="Key">
      {KEY.map(([kind, words]) => (
        <li key={kind}>
          <svg className={`xg-edge xg-${kind}`} width="26" height="10" aria-hidden="true">
            <path className="xg-line" d="M1,5 L25,5" />
          </svg>
          {words}
        </li>
      ))}
      {boxed && (
        <li>
          <svg className="xg-key-box" width="26" height="14" aria-hidden="true">
            <rect x="1" y="1" width="24" height="12" rx="3" />
          </svg>
          a box: one call made (its text on it), or a loop and its iterations
        </li>
      )}
      {handler && (
        <li>
          <svg className="xg-key-box xg-key-handler" width="26" height="14" aria-hidden="true">
            <rect x="1" y="1" width="24" height="12" rx="3" />
          </svg>
          a tinted box: an interrupt handler&rsquo;s run, where it interrupted the task
        </li>
      )}
      {(scheduler || hotplug) && (
        <li>
          <svg className="xg-key-box xg-key-quiet" width="26" height="14" aria-hidden="true">
            <rect x="1" y="1" width="24" height="12" rx="3" />
          </svg>
          small and grey: what the model adds around the program,{' '}
          {scheduler &&
            'the scheduler’s turns (a CPU’s runqueue taken and handed on, with full barriers)'}
          {scheduler && hotplug && '; '}
          {hotplug && 'CPU hotplug’s own steps'}
        </li>
      )}
      {looped && (
        <li>
          <svg className="xg-key-box xg-key-fold" width="26" height="14" aria-hidden="true">
            <rect x="5" y="1" width="20" height="10" rx="2" />
            <rect x="1" y="3" width="20" height="10" rx="2" />
          </svg>
          a stack of cards: a loop&rsquo;s iterations folded into one; <em>show</em> and{' '}
          <em>fold</em> are buttons (Tab, then Enter)
        </li>
      )}
    </ul>
  );
}
