import { SlotBars } from '../../charts/SlotBars.tsx';
import { Kind } from '../../machine/isa.ts';
import { actorName } from '../../machine/narrate.ts';
import { currentState } from '../../store/session.ts';
import { cpuColour, globalCells, perCpuCells } from './view.ts';
import { useStep } from './useStep.ts';

/** Globals as a table; per-CPU variables as bars (with ±batch) and as text. */
export function MemoryView() {
  const session = useStep((s) => s.session);
  const m = session.instance.machine;
  const s = currentState(session);
  const batch = typeof session.params.batch === 'number' ? session.params.batch : null;
  // A fold just happened: the folding CPU's bar pours into the global count (a short animation,
  // off under prefers-reduced-motion), so the eye follows the batch from the slot to fbc->count.
  const last = session.cursor > 0 ? session.steps[session.cursor - 1] : undefined;
  const folded = last?.kind === Kind.Fold ? last.cpu : -1;
  return (
    <section className="memory" aria-label="Memory">
      <table>
        <caption>Memory</caption>
        <tbody>
          {globalCells(m, s).map((c) => (
            <tr
              key={`${c.name}-${String(session.cursor)}`}
              className={folded >= 0 && c.name === 'count' ? 'filled' : undefined}
            >
              <th scope="row">{c.label}</th>
              <td>{c.value}</td>
            </tr>
          ))}
          {perCpuCells(m, s).map((c) =>
            c.values.map((v, k) => (
              <tr key={`${c.name}${k}`}>
                <th scope="row">
                  CPU{k}&rsquo;s {c.label}
                </th>
                <td>{c.isLock ? (v === 0 ? 'free' : `held by ${actorName(m, s, v - 1)}`) : v}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      {perCpuCells(m, s)
        .filter((c) => !c.isLock)
        .map((c) => (
          <SlotBars
            key={`${c.name}-${String(session.cursor)}`}
            label={c.label}
            values={c.values}
            batch={c.name === 'slots' ? batch : null}
            colour={cpuColour}
            pouring={c.name === 'slots' ? folded : -1}
          />
        ))}
    </section>
  );
}
