import { useEffect, useRef, useState } from 'react';
import { lessons } from '../../lessons/index.ts';
import { progressStore, useProgress } from '../useProgress.ts';
import { count } from '../../machine/count.ts';

const allKeys = new Set(lessons.flatMap((l) => l.challenges.map((c) => `${l.scenario}/${c.id}`)));

/** The course's progress in a line, and Reset, asked twice because it forgets everything. */
export function ResetProgress() {
  const done = useProgress(
    (s) => Object.keys(s.progress.challenges).filter((k) => allKeys.has(k)).length,
  );
  const [asking, setAsking] = useState(false);
  const [said, setSaid] = useState('');
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) keep.current?.focus();
  }, [asking]);
  return (
    <div className="course-progress">
      <p>
        Course progress: {done} of {count(allKeys.size, 'challenge')} done, kept in this browser.
      </p>
      {asking ? (
        <div role="group" aria-label="Reset progress?">
          <p>Forget every solved challenge and every slide seen, in every scenario?</p>
          <button
            type="button"
            onClick={() => {
              progressStore.getState().reset();
              setAsking(false);
              setSaid('Progress reset.');
            }}
          >
            Yes, reset progress
          </button>{' '}
          <button
            ref={keep}
            type="button"
            onClick={() => {
              setAsking(false);
            }}
          >
            Keep progress
          </button>
        </div>
      ) : (
        <button
          type="button"
          onClick={() => {
            setAsking(true);
            setSaid('');
          }}
        >
          Reset progress
        </button>
      )}
      <span role="status">{said}</span>
    </div>
  );
}
