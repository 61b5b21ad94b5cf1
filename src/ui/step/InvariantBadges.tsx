import { invariantViews } from './view.ts';
import { useStep } from './useStep.ts';

/** One badge per invariant: holds, violated (with the reason), or pending until the end. */
export function InvariantBadges() {
  const session = useStep((s) => s.session);
  return (
    <section className="invariants" aria-label="Invariants">
      {/* The badges say what they are; the heading stays for screen readers, the width for
          badges, which then take fewer rows under the chart. */}
      <h3 className="sr-only">Invariants</h3>
      <ul aria-label="Invariant badges" tabIndex={0}>
        {invariantViews(session).map((v) => (
          <li
            key={v.id}
            className={`inv ${v.status}`}
            // Named by what it says (the ✓/✗ drawn by CSS and the title stay out of the name).
            aria-label={`${v.id}: ${v.status}${v.reason ? ` (${v.reason})` : ''}`}
            title={`${v.status === 'pending' ? 'pending: judged when every CPU has finished. ' : ''}${v.description}`}
          >
            {/* Each status has a shape as well as a colour (✓ solid, ✗ solid, ◷ dashed), so
                the words are only for screen readers and the tooltip. */}
            <strong>{v.id}</strong>
            <span className="sr-only">: {v.status}</span>
            {/* On the stage only a broken invariant's reason is spelt out; all are in the name. */}
            {v.reason && v.status === 'violated' && <span className="reason"> ({v.reason})</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
