import { findLesson } from '../../lessons/index.ts';
import { PredictReveal } from '../PredictReveal.tsx';
import { lectureLink } from '../../store/lectureLink.ts';
import { stepStore, useStep } from './useStep.ts';

/** Predict, then reveal: the scenario's question with the answer hidden until asked for. */
export function LessonPanel() {
  const lesson = useStep((s) => s.session.scenario.lesson);
  const revealed = useStep((s) => s.revealed);
  const witness = useStep((s) => s.session.scenario.witnesses.find((w) => w.name === s.witness));
  const id = useStep((s) => s.session.scenario.id);
  const asked = witness ? findLesson(id)?.witnessQuestions[witness.name] : undefined;
  return (
    <section className="lesson" aria-label="Lesson">
      <p>
        <a href={lectureLink(id, 1)}>Present this lesson as slides</a>
      </p>
      {witness && asked && (
        <PredictReveal
          key={witness.name}
          p={asked}
          heading={<h3>Before you step {witness.name}</h3>}
          what="the witness answer"
        />
      )}
      {witness && (
        // Collapsed: a witness's description tells its ending, which would spoil the prediction.
        <details className="witness-about">
          <summary>About the loaded witness, {witness.name}</summary>
          <p>{witness.description}</p>
        </details>
      )}
      <h3>Predict</h3>
      <p>{lesson.question}</p>
      <p className="answer" aria-live="polite">
        {revealed ? lesson.answer : '?'}
      </p>
      <button
        type="button"
        aria-pressed={revealed}
        onClick={() => {
          stepStore.getState().revealToggled();
        }}
      >
        {revealed ? 'Hide answer' : 'Reveal answer'}
      </button>
      <details>
        <summary>About this scenario</summary>
        <p>{lesson.summary}</p>
      </details>
    </section>
  );
}
