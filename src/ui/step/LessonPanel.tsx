import { stepStore, useStep } from './useStep.ts';

/** Predict, then reveal: the scenario's question with the answer hidden until asked for. */
export function LessonPanel() {
  const lesson = useStep((s) => s.session.scenario.lesson);
  const revealed = useStep((s) => s.revealed);
  return (
    <section className="lesson" aria-label="Lesson">
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
