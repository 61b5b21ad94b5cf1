import { liveSpecOf } from '../live/specs.ts';
import type { ScenarioSummary } from '../scenarios/index.ts';

/** One catalogue entry: title, id, what it shows, where it comes from. */
export function ScenarioItem({ scenario }: { scenario: ScenarioSummary }) {
  return (
    <li className="scenario">
      <h3>{scenario.title}</h3>
      <p className="scenario-id">
        <code>{scenario.id}</code>
        {scenario.reconstruction && <span className="badge">reconstruction</span>}
      </p>
      <p>{scenario.summary}</p>
      <p className="scenario-source">Source: {scenario.source}</p>
      <p>
        <a href={`#/step/${scenario.id}`}>Open {scenario.id} in Step mode</a>
        {liveSpecOf(scenario.id) && (
          <>
            {' · '}
            <a href={`#/live/${scenario.id}`}>Run {scenario.id} live</a>
          </>
        )}
      </p>
    </li>
  );
}
