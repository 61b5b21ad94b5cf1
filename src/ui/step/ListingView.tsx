import { currentState } from '../../store/session.ts';
import { cpuColour, cpuViews } from './view.ts';
import { useStep } from './useStep.ts';

/** The pseudo-C listing with a labelled, coloured cursor per CPU on the line it runs next. */
export function ListingView() {
  const session = useStep((s) => s.session);
  const { lines, notes } = session.instance.listing;
  const cpus = cpuViews(session.instance.machine, currentState(session));
  const at = new Map<number, number[]>();
  for (const c of cpus)
    if (c.nextLine > 0) at.set(c.nextLine, [...(at.get(c.nextLine) ?? []), c.cpu]);
  return (
    <section className="listing" aria-label="Listing">
      <ol aria-label="Source listing">
        {lines.map((text, i) => {
          const here = at.get(i + 1) ?? [];
          return (
            <li key={i} className={here.length ? 'current' : undefined}>
              <span className="cursors">
                {here.map((k) => (
                  <span key={k} className="cursor-chip" style={{ background: cpuColour(k) }}>
                    CPU{k}
                  </span>
                ))}
              </span>
              <code>{text.replace(/\t/g, '    ')}</code>
            </li>
          );
        })}
      </ol>
      {notes.length > 0 && (
        <details>
          <summary>Notes on this model</summary>
          <ul>
            {notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
