import { invariantViews } from './view.ts';
import { useStep } from './useStep.ts';

/** One badge per invariant: holds, violated (with the reason), or pending until the end. */
export function InvariantBadges() {
  const session = useStep((s) => s.session);
  return (
    <section className="invariants" aria-label="Invariants">
      <h3>Invariants</h3>
      <ul>
        {invariantViews(session).map((v) => (
          <li key={v.id} className={`inv ${v.status}`} title={v.description}>
            <strong>{v.id}</strong>: {v.status}
            {v.reason && <span className="reason"> ({v.reason})</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
