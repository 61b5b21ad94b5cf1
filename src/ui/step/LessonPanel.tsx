import { useState } from 'react';
import { findLesson, type Prediction } from '../../lessons/index.ts';
import { lectureLink } from '../../store/lectureLink.ts';
import { stepStore, useStep } from './useStep.ts';

/** The loaded witness's own question, its answer hidden until asked for. */
function WitnessQuestion({ name, p }: { name: string; p: Prediction }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="witness-question">
      <h3>Before you step {name}</h3>
      <p>{p.question}</p>
      <button
        type="button"
        aria-expanded={shown}
        onClick={() => {
          setShown((v) => !v);
        }}
      >
        {shown ? 'Hide the witness answer' : 'Reveal the witness answer'}
      </button>
      {shown && <p className="answer">{p.answer}</p>}
    </div>
  );
}

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
      {witness && asked && <WitnessQuestion key={witness.name} name={witness.name} p={asked} />}
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
