import { findLesson } from '../../lessons/index.ts';
import { useStep } from './useStep.ts';

/**
 * The loaded witness, on the stage: what it shows, in the project's words, so a student knows
 * what to watch for. When its lesson asks a question about it first, the description (which
 * tells the ending) waits behind a disclosure until the student has predicted.
 */
export function WitnessNote() {
  const witness = useStep((s) => s.session.scenario.witnesses.find((w) => w.name === s.witness));
  const id = useStep((s) => s.session.scenario.id);
  const left = useStep((s) => s.session.events.length - s.session.cursor);
  if (!witness) return null;
  const asked = findLesson(id)?.witnessQuestions[witness.name] !== undefined;
  const ready =
    left > 0
      ? ` ${String(left)} ${left === 1 ? 'event is' : 'events are'} loaded: → plays them.`
      : '';
  return (
    <section className="witness-note" aria-label="Loaded witness">
      {asked ? (
        <details>
          <summary>
            Witness <code>{witness.name}</code>: predict first (Lesson panel), then open to read
            what it shows.{ready}
          </summary>
          <p>{witness.description}</p>
        </details>
      ) : (
        // One line on the stage (it must not push the stage off a projector); open, the whole.
        <details>
          <summary>
            Witness <code>{witness.name}</code>: {witness.description}
          </summary>
          <p>{ready.trim()}</p>
        </details>
      )}
    </section>
  );
}
