import { useCallback, useEffect, useState } from 'react';
import { Timeline } from '../../charts/Timeline.tsx';
import { ChallengePanel } from '../challenge/ChallengePanel.tsx';
import { ExplorePanel } from '../explore/ExplorePanel.tsx';
import { linkOf } from '../../store/stepStore.ts';
import { Controls } from './Controls.tsx';
import { CpuLanes } from './CpuLanes.tsx';
import { InvariantBadges } from './InvariantBadges.tsx';
import { LessonPanel } from './LessonPanel.tsx';
import { LastStep } from './LastStep.tsx';
import { ListingView } from './ListingView.tsx';
import { MemoryView } from './MemoryView.tsx';
import { NarrationLog } from './NarrationLog.tsx';
import { ResultsTable } from './ResultsTable.tsx';
import { ScenarioBar } from './ScenarioBar.tsx';
import { ShortcutSheet } from './ShortcutSheet.tsx';
import { useStepKeys } from './useKeyboard.ts';
import { stepStore, useStepFields } from './useStep.ts';

/** Step mode: you are the scheduler. */
export function StepScreen() {
  const { session, notice, playing, speed } = useStepFields(
    'session',
    'notice',
    'playing',
    'speed',
  );
  const [help, setHelp] = useState(false);
  const openHelp = useCallback(() => {
    setHelp(true);
  }, []);
  useStepKeys(openHelp);

  // The URL always holds the moment shown, without adding history entries per step.
  useEffect(() => {
    const hash = linkOf(session);
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }, [session]);

  // Play: the seeded random scheduler, one event per tick.
  useEffect(() => {
    if (!playing) return;
    const t = setInterval(() => {
      stepStore.getState().playTicked();
    }, 1000 / speed);
    return () => {
      clearInterval(t);
    };
  }, [playing, speed]);

  const steps = session.steps.map((s) => ({ cpu: s.cpu, kind: s.kind, text: s.text }));
  return (
    <div className="step-screen">
      <h2>
        {session.scenario.title} <code>{session.scenario.id}</code>
      </h2>
      <ScenarioBar />
      {notice && (
        <div role="alert" className="notice">
          {notice}{' '}
          <button
            type="button"
            onClick={() => {
              stepStore.getState().noticeDismissed();
            }}
          >
            Dismiss
          </button>
        </div>
      )}
      <Controls />
      <LastStep />
      <div className="stage">
        <CpuLanes />
        <ListingView />
        <MemoryView />
      </div>
      <Timeline
        steps={steps}
        cpus={session.instance.machine.cpus}
        cursor={session.cursor}
        onJump={(c) => {
          stepStore.getState().jumpRequested(c);
        }}
      />
      <div className="below">
        <NarrationLog />
        <div>
          <InvariantBadges />
          <ResultsTable />
        </div>
        <LessonPanel />
      </div>
      <ChallengePanel />
      <ExplorePanel />
      <p className="hint">
        Press <kbd>?</kbd> for keyboard shortcuts.
      </p>
      <ShortcutSheet
        open={help}
        onClose={() => {
          setHelp(false);
        }}
      />
    </div>
  );
}
