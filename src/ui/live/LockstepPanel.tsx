import { useId, useState } from 'react';
import { SelectField } from '../SelectField.tsx';
import { findScenario } from '../../scenarios/index.ts';
import { paramsText } from '../../scenarios/params.ts';
import { runBusy } from '../../store/liveStore.ts';
import { liveStore, useLiveFields } from './useLive.ts';

const STEP_SCHEDULE = '(Step mode schedule)';

/** Replays a witness (or Step mode's schedule) on the workers one event at a time. */
export function LockstepPanel() {
  const id = useId();
  const { scenario, lockstep, offered, phase } = useLiveFields(
    'scenario',
    'lockstep',
    'offered',
    'phase',
  );
  const sc = findScenario(scenario);
  const witnesses = sc?.witnesses ?? [];
  const [picked, setPicked] = useState(offered ? STEP_SCHEDULE : (witnesses[0]?.name ?? ''));
  const busy = runBusy(phase);
  const replay = () => {
    if (picked === STEP_SCHEDULE && offered) {
      void liveStore
        .getState()
        .lockstepRequested(offered.params, offered.schedule, `Step mode's schedule`);
      return;
    }
    const w = witnesses.find((x) => x.name === picked);
    if (!w) return;
    void liveStore
      .getState()
      .lockstepRequested(paramsText(w.params), w.schedule, `Witness ${w.name}`);
  };
  return (
    <section className="lockstep" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Lockstep: the model against the hardware</h3>
      <p className="hint">
        Each event of the schedule runs on its CPU&rsquo;s worker, handed over through Atomics; the
        final shared memory is then compared word by word with the model&rsquo;s replay.
      </p>
      <div className="row">
        <SelectField label="Schedule" value={picked} onPick={setPicked}>
          {offered && (
            <option value={STEP_SCHEDULE}>Step mode&rsquo;s schedule: {offered.schedule}</option>
          )}
          {witnesses.map((w) => (
            <option key={w.name} value={w.name}>
              witness {w.name}: {w.schedule}
            </option>
          ))}
        </SelectField>
        <button type="button" disabled={busy || lockstep.busy || picked === ''} onClick={replay}>
          Replay on workers
        </button>
        <button
          type="button"
          disabled={busy || lockstep.busy || witnesses.length === 0}
          onClick={() => {
            void liveStore.getState().allWitnessesRequested();
          }}
        >
          Replay all {witnesses.length} witnesses
        </button>
      </div>
      <p
        role="status"
        aria-label="Lockstep verdict"
        className={lockstep.agreed === false ? 'notice' : lockstep.agreed ? 'agree' : undefined}
      >
        {lockstep.verdict ?? ''}
      </p>
    </section>
  );
}
