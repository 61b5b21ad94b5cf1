import { useId } from 'react';
import type { ScenarioSummary } from '../scenarios/index.ts';
import { groupBy } from './groupBy.ts';
import { ScenarioItem } from './ScenarioItem.tsx';

/** The scenario catalogue, one section per group (the mailing-list thread or era it comes from). */
export function ScenarioList({ scenarios }: { scenarios: readonly ScenarioSummary[] }) {
  const idPrefix = useId();
  return (
    <>
      {scenarios.some((scenario) => scenario.reconstruction) && (
        <p className="catalogue-note">
          Scenarios marked <span className="badge">reconstruction</span> are rebuilt from prose
          descriptions, not from code: treat them as teaching models, not history.
        </p>
      )}
      {groupBy(scenarios, (scenario) => scenario.group).map(({ key, items }, index) => {
        const headingId = `${idPrefix}-group-${index}`;
        return (
          <section key={key} className="scenario-group" aria-labelledby={headingId}>
            <h2 id={headingId}>{key}</h2>
            <ul className="scenarios">
              {items.map((scenario) => (
                <ScenarioItem key={scenario.id} scenario={scenario} />
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}
