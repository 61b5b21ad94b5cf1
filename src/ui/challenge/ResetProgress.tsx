import { useEffect, useRef, useState } from 'react';
import { progressStore, useProgress } from '../useProgress.ts';
import { count } from '../../machine/count.ts';

/**
 * The course's progress in a line, and Reset, asked twice because it forgets everything. `keys`:
 * every challenge of the course ("scenario/challenge"), what the line counts.
 */
export function ResetProgress({ keys }: { keys: ReadonlySet<string> }) {
  const done = useProgress(
    (s) => Object.keys(s.progress.challenges).filter((k) => keys.has(k)).length,
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
        Course progress: {done} of {count(keys.size, 'challenge')} done, kept in this browser.
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
