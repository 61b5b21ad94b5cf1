import type { FinalReport as Report } from '../../store/liveStore.ts';
import { formatRate } from '../../live/format.ts';
import { findScenario } from '../../scenarios/index.ts';

const fmtN = (v: number | bigint) => v.toLocaleString('en-US');

function percent(part: number | bigint, whole: number | bigint): string {
  const w = Number(whole);
  return w === 0 ? 'all' : `${((Number(part) / w) * 100).toFixed(2)} %`;
}

/** After Stop: the invariants judged on the state the CPUs stopped in. */
export function FinalReport({ report, scenario }: { report: Report; scenario: string }) {
  const sc = findScenario(scenario);
  const broken = new Map(report.violations.map((v) => [v.id, v.reason]));
  const total = report.reading.total.adds.toLocaleString('en-US');
  const lost = report.reading.lost;
  const added = report.reading.added;
  return (
    <section className="final-report" aria-labelledby="final-h">
      <h3 id="final-h">Verdict at rest</h3>
      {!report.terminal ? (
        <p>The CPUs did not all come to rest, so the invariants are not judged.</p>
      ) : (
        <>
          <p>
            {lost === 0 || lost === 0n
              ? `No update lost: the counter holds all ${fmtN(added)} added (${total} adds in ${report.seconds.toFixed(1)} s).`
              : `The counter is short by ${fmtN(lost)}: of the ${fmtN(added)} added in ${report.seconds.toFixed(1)} s, ${percent(lost, added)} was lost.`}
          </p>
          <ul className="verdicts">
            {sc?.invariants.map((inv) => (
              <li key={inv.id} className={broken.has(inv.id) ? 'bad' : 'good'}>
                <strong>{broken.has(inv.id) ? 'Violated' : 'Holds'}</strong>: <code>{inv.id}</code>{' '}
                {broken.get(inv.id) ?? inv.description}
              </li>
            ))}
          </ul>
          <PerCpu report={report} />
          {sc?.invariants.some((i) => i.when === 'always') && (
            <p className="hint">
              The model judges these at every state; here each sum() is judged as it returns, the
              others on the state the CPUs stopped in.
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** What each CPU did over the run: operations, and operations per second of the run. */
function PerCpu({ report }: { report: Report }) {
  const s = Math.max(report.seconds, 1e-9);
  return (
    <table className="live-totals per-cpu">
      <caption>Per CPU</caption>
      <thead>
        <tr>
          <th scope="col">CPU</th>
          <th scope="col">Operations</th>
          <th scope="col">Operations per second</th>
          <th scope="col">Instructions per second</th>
        </tr>
      </thead>
      <tbody>
        {report.reading.cpus.map((c, k) => (
          <tr key={k}>
            <th scope="row">CPU{k}</th>
            <td>{(c.adds + c.calls).toLocaleString('en-US')}</td>
            <td>{formatRate((c.adds + c.calls) / s)}</td>
            <td>{formatRate(c.steps / s)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
