import { useEffect, useRef } from 'react';
import type { MemoryView } from '../../store/axiomaticStore.ts';
import { LogBox } from '../LogBox.tsx';
import { axiomaticStore, useAxiomatic } from './useAxiomatic.ts';

/**
 * "Be the memory system": one radio group per read, whose options are the writes it may still
 * see; each choice is sent to the worker, the model's answer comes back with the graph of an
 * execution that agrees, and the narration (a polite live region) says what the choice did.
 */
export function MemorySystemControls({ view }: { view: MemoryView }) {
  const narration = useAxiomatic((s) => s.narration);
  const loading = useAxiomatic((s) => s.loading);
  // The choice on its way shows as made, so a radio does not spring back while the model answers.
  const picking = useAxiomatic((s) => s.picking);
  const chosen = (read: string, fallback: string | null) =>
    picking?.read === read ? picking.write : fallback;
  const actions = axiomaticStore.getState();
  const log = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const l = log.current;
    if (l) l.scrollTop = l.scrollHeight;
  }, [narration]);
  const open = view.consistent > 0;
  return (
    <section className="xg-memory" aria-label="Be the memory system">
      <p className="hint">
        You are the memory system: choose, read by read, the write each read sees. The model then
        says whether any execution is still possible, and the graph shows one candidate that agrees
        with your choices (a read you have not chosen yet reads from a write that fits).
      </p>
      {/* First, so the answer to a pick is in view however many reads follow. Not a live
          region: the narration below announces each choice, this line included. */}
      <p className={`xg-door ${open ? 'open' : 'closed'}`}>
        {open
          ? `Still possible: ${String(view.consistent)} of the ${String(view.candidates)} candidate executions that agree with your choices are allowed.`
          : view.closedBy
            ? `The door is closed: no execution is possible. Every candidate left breaks ${view.closedBy}.`
            : 'No run of the program fits these choices.'}
      </p>
      {view.reads.map((r) => (
        <fieldset key={r.read} className="xg-read">
          <legend>{r.name} reads from</legend>
          <label>
            <input
              type="radio"
              name={`read-${r.read}`}
              checked={chosen(r.read, r.chosen) === null}
              disabled={loading}
              onChange={() => {
                actions.writeChosen(r.read, null);
              }}
            />
            not chosen yet
          </label>
          {r.options.map((o) => (
            <label key={o.write}>
              <input
                type="radio"
                name={`read-${r.read}`}
                checked={chosen(r.read, r.chosen) === o.write}
                disabled={loading}
                onChange={() => {
                  actions.writeChosen(r.read, o.write);
                }}
              />
              {o.label}
            </label>
          ))}
        </fieldset>
      ))}
      <button
        type="button"
        onClick={() => {
          actions.memorySystemReset();
        }}
      >
        Start over
      </button>
      <LogBox ref={log} className="xg-narration" label="What your choices did">
        {narration.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </LogBox>
    </section>
  );
}

/** The button that opens "Be the memory system" on the stage (from the stage and the panel). */
export function BeTheMemorySystem({ disabled }: { disabled: boolean }) {
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={() => {
        axiomaticStore.getState().memorySystemOpened();
      }}
    >
      Be the memory system
    </button>
  );
}
