import { type ReactNode, useState } from 'react';
import type { Prediction } from '../lessons/index.ts';

/**
 * A question to answer before the reveal: the answer stays hidden until asked for (key it by
 * what it asks, so a new question starts hidden again).
 */
export function PredictReveal({
  p,
  heading,
  what = 'the answer',
}: {
  p: Prediction;
  heading: ReactNode;
  /** Names the answer in the button ("Reveal the witness answer"). */
  what?: string;
}) {
  const [shown, setShown] = useState(false);
  return (
    <div className="predict">
      {heading}
      <p>{p.question}</p>
      <button
        type="button"
        aria-expanded={shown}
        onClick={() => {
          setShown((v) => !v);
        }}
      >
        {shown ? `Hide ${what}` : `Reveal ${what}`}
      </button>
      {shown && <p className="answer">{p.answer}</p>}
    </div>
  );
}
