import { cpuSetText } from '../../machine/read.ts';
import { observe } from '../../scenarios/outcome.ts';
import type { Value } from '../../scenarios/types.ts';
import { currentState } from '../../store/session.ts';
import { useStep } from './useStep.ts';

function show(v: Value | undefined, cpuSet: boolean): string {
  if (v === null || v === undefined) return '—';
  if (cpuSet && (typeof v === 'number' || typeof v === 'bigint')) return cpuSetText(v);
  if (Array.isArray(v)) return v.map((x: number | bigint) => x.toString()).join(', ');
  return v.toString();
}

/** The scenario's observables at the moment shown: what sums and reads returned, the exact total… */
export function ResultsTable() {
  const session = useStep((s) => s.session);
  const { scenario, instance, params } = session;
  const values = observe(scenario, instance.machine, currentState(session), params);
  return (
    <section className="results" aria-label="Observables">
      <h3>Observables</h3>
      <table>
        <tbody>
          {scenario.observables(params).map((o) => (
            <tr key={o.name} title={o.description}>
              <th scope="row">{o.name}</th>
              <td>{show(values[o.name], o.cpuSet === true)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
