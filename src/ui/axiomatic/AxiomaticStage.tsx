import { ExecutionGraph } from '../../charts/ExecutionGraph.tsx';
import type { AxiomaticState, Shown } from '../../store/axiomaticStore.ts';
import { count } from '../../machine/count.ts';
import { stepStore } from '../step/useStep.ts';
import { useMedia } from '../useMedia.ts';
import { BeTheMemorySystem, MemorySystemControls } from './MemorySystem.tsx';
import { CycleSteps, EdgeTable, GraphKey } from './GraphText.tsx';
import {
  type AxiomaticSubject,
  axiomaticStore,
  useAxiomatic,
  useAxiomaticSubject,
} from './useAxiomatic.ts';
import './axiomatic.css';

/** A state as herd7 prints it, without the last ';' (the title's own punctuation follows). */
const stateOf = (line: string) => line.replace(/;\s*$/, '');

/** What the graph on the stage shows, in a line: its title. */
function titleOf(shown: Shown, answer: AxiomaticState['answer']): string {
  const states = answer?.ok ? answer.states : [];
  switch (shown.kind) {
    case 'execution': {
      const n = states[shown.state]?.executions ?? 1;
      return `An execution that ends in ${stateOf(shown.graph.state)}: allowed by lkmm (${count(n, 'execution')} end${n === 1 ? 's' : ''} here)`;
    }
    case 'why-not': {
      const g = shown.graphs[shown.index];
      return `Why not ${g ? stateOf(g.state) : 'this end state'}? Candidate ${String(shown.index + 1)} of ${String(shown.graphs.length)}: forbidden by lkmm's ${g?.why?.axiom ?? 'axioms'}`;
    }
    case 'memory':
      return shown.view.graph
        ? `Be the memory system: ${shown.view.graph.consistent ? 'an execution lkmm allows' : 'a candidate lkmm forbids'}, ending in ${stateOf(shown.view.graph.state)}`
        : 'Be the memory system';
  }
}

function graphOf(shown: Shown) {
  if (shown.kind === 'execution') return shown.graph;
  if (shown.kind === 'why-not') return shown.graphs[shown.index] ?? null;
  return shown.view.graph;
}

/** Why Step has no steps under lkmm, and the way to the graph instead. */
function NoSteps({ compact }: { compact: boolean }) {
  const actions = axiomaticStore.getState();
  const answering = useAxiomatic((s) => s.answering || s.loading);
  return (
    <section
      className={`xg-no-steps${compact ? ' compact' : ''}`}
      aria-label="Why Step cannot step"
    >
      {compact ? (
        <p>
          <strong>No steps under lkmm</strong>: the model judges whole executions, not
          interleavings.
        </p>
      ) : (
        <>
          <h3>No steps to take under the kernel&rsquo;s memory model (lkmm)</h3>
          <p>
            Step mode makes you the scheduler: one CPU at a time, each store seen by everyone at
            once (or, under <code>tso</code>, from a store buffer). The kernel&rsquo;s memory model
            is axiomatic: there is no single interleaving to step through. It takes whole candidate
            executions (which write each read reads from, the order of each location&rsquo;s writes)
            and keeps those that break none of its axioms.
          </p>
          <p>
            So instead of steps, see an execution as a graph: the events of each thread in a column,
            and the arrows that say who read what. For an outcome the model forbids, the graph shows
            the cycle that forbids it.
          </p>
        </>
      )}
      <div className="row">
        <button
          type="button"
          disabled={answering}
          onClick={() => {
            actions.graphRequested();
          }}
        >
          Show an execution graph
        </button>
        <BeTheMemorySystem disabled={answering} />
        <button
          type="button"
          onClick={() => {
            stepStore.getState().paramChanged('memory', 'sc');
          }}
        >
          Step it under sc instead
        </button>
      </div>
    </section>
  );
}

/**
 * Step mode's stage under memory lkmm: why there are no steps, and the execution graph in their
 * place (an end state's execution, "Why not?", or "Be the memory system"), with its cycle and
 * edges as text beside it.
 */
export function AxiomaticStage(subject: AxiomaticSubject) {
  useAxiomaticSubject(subject);
  const shown = useAxiomatic((s) => s.shown);
  const answer = useAxiomatic((s) => s.answer);
  const error = useAxiomatic((s) => s.error);
  const busy = useAxiomatic((s) => s.answering || s.loading);
  const actions = axiomaticStore.getState();
  const graph = shown ? graphOf(shown) : null;
  const status = busy
    ? 'Asking the kernel’s memory model (lkmm)…'
    : error
      ? error
      : answer && !answer.ok
        ? `The kernel’s memory model (lkmm) cannot answer this program: ${answer.refusal}.`
        : '';
  // On a phone the stage stacks and a graph is a page tall: being the memory system, the reads
  // to choose come first (in the page's order, so the keyboard meets them first too), rather
  // than out of sight under the graph with nothing to say so.
  const phone = useMedia('(max-width: 600px)');
  const choicesFirst = phone && shown?.kind === 'memory';
  // Focusable with a graph: a large one scrolls, and the keyboard must scroll it too.
  const picture = (
    <div
      key="picture"
      className={`xg-picture${shown && graph ? ' with-graph' : ''}`}
      {...(shown && graph
        ? { tabIndex: 0, role: 'region', 'aria-label': 'The execution graph' }
        : {})}
    >
      {shown && graph ? (
        <figure className="xg-figure">
          <ExecutionGraph graph={graph} title={titleOf(shown, answer)} />
          <figcaption>
            <GraphKey graph={graph} />
          </figcaption>
        </figure>
      ) : (
        <NoSteps compact={false} />
      )}
    </div>
  );
  const side = (
    <div key="side" className="xg-side">
      {shown && <NoSteps compact />}
      <p role="status" className="xg-status">
        {status}
      </p>
      {shown && graph && (
        <section className="xg-caption" aria-label="The execution shown">
          <h3>{titleOf(shown, answer)}</h3>
          {shown.kind === 'why-not' && shown.graphs.length > 1 && (
            <div className="row" role="group" aria-label="Forbidden candidates">
              <button
                type="button"
                disabled={shown.index === 0}
                onClick={() => {
                  actions.whyNotCandidateChosen(shown.index - 1);
                }}
              >
                Previous candidate
              </button>
              <button
                type="button"
                disabled={shown.index + 1 >= shown.graphs.length}
                onClick={() => {
                  actions.whyNotCandidateChosen(shown.index + 1);
                }}
              >
                Next candidate
              </button>
            </div>
          )}
          {shown.kind === 'memory' && <MemorySystemControls view={shown.view} />}
          {graph.flags.length > 0 && (
            <p>
              Flags: {graph.flags.join(', ')} (
              {graph.flags.includes('data-race')
                ? 'plain accesses race here'
                : 'raised by the model'}
              )
            </p>
          )}
          <CycleSteps graph={graph} />
          <EdgeTable graph={graph} />
          <button
            type="button"
            onClick={() => {
              actions.graphClosed();
            }}
          >
            Close the graph
          </button>
        </section>
      )}
    </div>
  );
  return (
    <div className="axiomatic-stage">
      <div className="xg-grid">{choicesFirst ? [side, picture] : [picture, side]}</div>
    </div>
  );
}
