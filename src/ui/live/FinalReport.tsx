import type { FinalReport as Report } from '../../store/liveStore.ts';
import { formatRate } from '../../live/format.ts';
import {
  atRestSentence,
  hotplugSentence,
  instructionRates,
  lostSentence,
  NOT_COUNTED,
  runRates,
  spinSentence,
  tierWords,
} from '../../live/verdict.ts';
import { groupDigits } from '../../live/messages.ts';
import { findScenario } from '../../scenarios/index.ts';

/** After Stop: the invariants judged on the state the CPUs stopped in. */
export function FinalReport({
  report,
  scenario,
  locks,
}: {
  report: Report;
  scenario: string;
  /** The machine has a spin lock: show how much each CPU spun on it. */
  locks: boolean;
}) {
  const sc = findScenario(scenario);
  const broken = new Map(report.violations.map((v) => [v.id, groupDigits(v.reason)]));
  const total = report.reading.total.adds.toLocaleString('en-US');
  const spun = spinSentence(report.reading);
  return (
    <section className="final-report" aria-labelledby="final-h">
      <h3 id="final-h">Verdict at rest</h3>
      {!report.terminal ? (
        <p>The CPUs did not all come to rest, so the invariants are not judged.</p>
      ) : (
        <>
          <p>
            {lostSentence(report.reading)}{' '}
            <span className="hint">
              ({total} adds in {report.seconds.toFixed(1)} s, {report.reading.engine ?? 'no'}{' '}
              engine, {tierWords(report.reading.tier)})
            </span>
          </p>
          {spun && <p className="hint">{spun}</p>}
          {report.reading.hotplugs !== null && (
            <p>{hotplugSentence(report.reading.hotplugs, report.reading.offline)}</p>
          )}
          <ul className="verdicts">
            {sc?.invariants.map((inv) => (
              <li key={inv.id} className={broken.has(inv.id) ? 'bad' : 'good'}>
                <strong>{broken.has(inv.id) ? 'Violated' : 'Holds'}</strong>: <code>{inv.id}</code>{' '}
                {broken.get(inv.id) ?? inv.description}
              </li>
            ))}
          </ul>
          <PerCpu report={report} locks={locks} />
          {sc && atRestSentence(sc) && <p className="hint">{atRestSentence(sc)}</p>}
        </>
      )}
    </section>
  );
}

/** What each CPU did over the run: operations, and operations per second of the run. */
function PerCpu({ report, locks }: { report: Report; locks: boolean }) {
  const s = Math.max(report.seconds, 1e-9);
  const rates = runRates(report.reading);
  const instructions = instructionRates({ ...report.reading, ms: s * 1000 });
  return (
    <table className="live-totals per-cpu">
      <caption>Per CPU</caption>
      <thead>
        <tr>
          <th scope="col">CPU</th>
          <th scope="col">Operations</th>
          <th scope="col">Operations per second</th>
          <th scope="col">Instructions per second</th>
          {locks && <th scope="col">Lock spins per second</th>}
        </tr>
      </thead>
      <tbody>
        {report.reading.cpus.map((c, k) => (
          <tr key={k}>
            <th scope="row">CPU{k}</th>
            <td>{(c.adds + c.calls).toLocaleString('en-US')}</td>
            <td>{formatRate(rates[k] ?? 0)}</td>
            <td>{rateOrNot(instructions[k] ?? null)}</td>
            {locks && <td>{formatRate(c.spins / s)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A rate, or "not counted" where the tier counted none. */
function rateOrNot(v: number | null): string {
  return v === null ? NOT_COUNTED : formatRate(v);
}
