import { useEffect } from 'react';
import { judgedWords } from '../../axiomatic/judgedWords.ts';
import type { RaceAccess } from '../../axiomatic/races.ts';
import { count } from '../../machine/count.ts';
import type { Shown } from '../../store/axiomaticStore.ts';
import { ExploreOrCancel } from '../explore/ExploreOrCancel.tsx';
import { stepStore } from '../step/useStep.ts';
import { BeTheMemorySystem } from './MemorySystem.tsx';
import {
  type AxiomaticSubject,
  axiomaticStore,
  useAxiomatic,
  useAxiomaticSubject,
} from './useAxiomatic.ts';
import './axiomatic.css';

/** What the stage shows now, for the panel's status line (the graph is not in the panel). */
function onStage(shown: Shown | null): string {
  if (!shown) return '';
  switch (shown.kind) {
    case 'execution':
      return `On the stage: an execution that ends in ${shown.graph.state}, with its edges as text.`;
    case 'why-not':
      return `On the stage: why not ${shown.graphs[0]?.state ?? 'that end state'}? ${count(shown.graphs.length, 'forbidden candidate')}, each with the cycle that forbids it.`;
    case 'memory':
      return 'On the stage: Be the memory system, one choice per read.';
  }
}

/** One access of a race: who, where, the statement, and whether it is marked. */
function RaceSide({ side }: { side: RaceAccess }) {
  const what = `${side.kind === 'write' ? 'writes' : 'reads'} it ${side.marked ? 'marked' : 'plainly'} on CPU${String(side.cpu)}`;
  // A step the kernel makes itself (a hotplug mask update) has no line of the program.
  if (side.pc < 0)
    return <>{`${side.who} ${what} (a step of the kernel’s own, not a line of the program)`}</>;
  return (
    <>
      {side.who}&rsquo;s{' '}
      {side.line > 0 ? `line ${String(side.line)}` : `instruction ${String(side.pc)}`}
      {side.statement && (
        <>
          {' '}
          (<code>{side.statement}</code>)
        </>
      )}{' '}
      {what}
    </>
  );
}

/**
 * Explore under memory lkmm: the axiomatic engine answers (in its worker) as herd7 does, every
 * end state the model allows with how many executions reach it, each with "Show an execution";
 * "Why not?" when the condition's state is never reached; "Be the memory system". The graphs
 * open on the stage.
 */
export function AxiomaticExplore({
  runAtOnce = false,
  onRunStarted,
  ...subject
}: AxiomaticSubject & {
  /** Answer as the panel opens (the editor's "Explore it"), then say so with `onRunStarted`. */
  runAtOnce?: boolean;
  onRunStarted?: (() => void) | undefined;
}) {
  useAxiomaticSubject(subject);
  // After the subject above is open (effects run in order): "Explore it" means explore, here as
  // under sc and tso. The panel loads this lazily, so the request waits for it, not for the panel.
  useEffect(() => {
    if (!runAtOnce) return;
    onRunStarted?.();
    axiomaticStore.getState().answerRequested();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when asked
  }, [runAtOnce]);
  const answer = useAxiomatic((s) => s.answer);
  const answering = useAxiomatic((s) => s.answering);
  const busy = useAxiomatic((s) => s.answering || s.loading);
  const error = useAxiomatic((s) => s.error);
  const shown = useAxiomatic((s) => s.shown);
  const actions = axiomaticStore.getState();
  const status = answering
    ? 'Answering under lkmm.'
    : error
      ? error
      : answer?.ok
        ? `Done under lkmm: ${count(answer.executions, 'execution')} allowed of ${judgedWords(answer)}, ${count(answer.states.length, 'end state')}, in ${String(answer.ms)} ms${answer.loopCut ? ' (some runs cut at the loop bound)' : ''}.`
        : answer
          ? 'Refused: the kernel’s memory model cannot answer this program (below, why).'
          : '';
  return (
    <section className="explore axiomatic-explore" aria-label="Explore">
      <h3>Every execution the kernel&rsquo;s memory model allows</h3>
      <p>
        Under <code>memory lkmm</code> the lab answers as <code>herd7</code> does with the Linux
        kernel&rsquo;s memory model (tools/memory-model): every candidate execution of the program
        (which write each read reads from, the order of each location&rsquo;s writes), kept when it
        breaks none of the model&rsquo;s axioms. There are no interleavings: interrupt handlers and
        the scheduler come in where the machine lets them, within the program&rsquo;s bounds.
      </p>
      <div className="bounds">
        <ExploreOrCancel
          running={answering}
          onExplore={() => {
            actions.answerRequested();
          }}
          onCancel={() => {
            actions.cancelRequested();
          }}
        />
      </div>
      <p role="status" className="explore-status">
        {status}
      </p>
      {answer && !answer.ok && (
        <div className="notice">
          The kernel&rsquo;s memory model (lkmm) cannot answer this program: {answer.refusal}.{' '}
          <button
            type="button"
            onClick={() => {
              stepStore.getState().paramChanged('memory', 'sc');
            }}
          >
            Use memory sc
          </button>
        </div>
      )}
      {answer?.ok && (
        <>
          {answer.herd && (
            <section aria-label="herd7's verdict" className="herd">
              {/* The model leads: the same test says Never under sc and Sometimes here. */}
              <h3>Under lkmm: {answer.herd.observation}</h3>
              <p>herd7&rsquo;s verdict: {answer.herd.ok ? 'Ok' : 'No'}.</p>
              {/* Focusable: a long line scrolls it sideways, and the keyboard must reach that. */}
              <pre tabIndex={0}>{answer.herd.text}</pre>
              <p className="hint">
                As herd7 prints it, under the Linux kernel&rsquo;s memory model (memory lkmm):
                Positive and Negative count executions, as herd7&rsquo;s do.
              </p>
              {answer.whyNot > 0 && (
                <p>
                  The condition&rsquo;s state is never reached: the model forbids every execution
                  that would reach it.{' '}
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => {
                      actions.whyNotShown();
                    }}
                  >
                    Why not?
                  </button>
                </p>
              )}
            </section>
          )}
          <ol className="outcomes" aria-label="End states">
            {answer.states.map((s, i) => (
              <li key={s.line} className={s.broken.length > 0 ? 'bad' : undefined}>
                <span>
                  #{i + 1} {s.line}
                  {s.condition === true && ' (the condition holds)'}
                  {s.broken.length > 0 && ` ✗ ${s.broken.map((v) => v.id).join(', ')}`}
                  {` (${count(s.executions, 'execution')})`}
                </span>{' '}
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => {
                    actions.executionShown(i);
                  }}
                >
                  Show an execution
                </button>
              </li>
            ))}
          </ol>
          {answer.races.length > 0 && (
            <section aria-label="Data races" className="races">
              <h4>Data races</h4>
              <p>
                The model raises <code>Flag data-race</code>: in some execution, two accesses to one
                location conflict, at least one is plain, and nothing orders them. A racy program
                has no guarantee under the model, so the end states above include what the race
                allows.
              </p>
              <ul>
                {answer.races.map((r) => (
                  <li key={r.sentence}>
                    <RaceSide side={r.a} /> and <RaceSide side={r.b} />: both touch{' '}
                    <code>{r.location}</code>, and nothing orders them.
                  </li>
                ))}
              </ul>
              {answer.marked && (
                <p>
                  With the racing accesses marked (as <code>READ_ONCE()</code> and{' '}
                  <code>WRITE_ONCE()</code> mark them): {count(answer.marked.outcomes, 'end state')}
                  ,{' '}
                  {answer.marked.broken.length > 0
                    ? `breaking ${answer.marked.broken.join(', ')}`
                    : 'no invariant broken'}
                  {answer.marked.flags.includes('data-race')
                    ? ', and still a data race.'
                    : ', and no data race.'}
                </p>
              )}
            </section>
          )}
          {answer.notJudged.length > 0 && (
            <section aria-label="Not judged under lkmm" className="not-judged">
              <h4>Not judged under lkmm</h4>
              <ul>
                {answer.notJudged.map((n) => (
                  <li key={n.id}>
                    <code>{n.id}</code>: {n.why}.
                  </li>
                ))}
              </ul>
            </section>
          )}
          <p>
            <BeTheMemorySystem disabled={busy} />{' '}
            <span className="hint">choose, read by read, the write each read sees</span>
          </p>
          <p role="status" aria-label="On the stage" className="hint">
            {onStage(shown)}
          </p>
        </>
      )}
    </section>
  );
}
