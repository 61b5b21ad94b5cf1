// Keyboard control of Step mode. Digits are matched by event.code (Digit0 … Digit8), so they work
// on every keyboard layout (Shift+digit flushes that CPU's store buffer under memory tso;
// Alt+Shift+digit takes that CPU offline, or back online, where it has dead callbacks); ←/→
// travel in time, Space plays or pauses, ? opens the sheet. Alt+digit alone is the browser's
// (a tab), so hotplug takes Shift too.

import { useEffect } from 'react';
import { Ev, makeEvent } from '../../machine/events.ts';
import { hotplugEvent } from '../../machine/hotplug.ts';
import { currentState } from '../../store/session.ts';
import { isAxiomatic } from '../../scenarios/textScenario.ts';
import { isStageKey, spaceIsFree } from '../keys.ts';
import { stepStore } from './useStep.ts';

/**
 * `timeKeys` false leaves ←, → and Space to someone else (lecture mode turns slides with them)
 * and travels in time with Shift+← and Shift+→ instead; the digits and ? keep working.
 */
export function useStepKeys(onHelp: () => void, timeKeys = true, on = true): void {
  useEffect(() => {
    // A student following the class: the teacher moves the stage, not the keys.
    if (!on) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isStageKey(e, /^Digit[0-8]$/.test(e.code))) return;
      const store = stepStore.getState();
      // Under memory lkmm there is no schedule: the stage shows graphs, and only ? is a command.
      if (isAxiomatic(store.session.params) && e.key !== '?') return;
      const digit = /^Digit([0-8])$/.exec(e.code);
      if (digit) {
        const k = Number(digit[1]);
        const m = store.session.instance.machine;
        if (k >= m.cpus) return;
        if (e.altKey && e.shiftKey) {
          // Hotplug: offline while online, else online (the store refuses it, saying why).
          const ev = hotplugEvent(m, currentState(store.session), k);
          if (ev === null) return;
          store.eventRequested(ev);
          e.preventDefault();
          return;
        }
        if (e.altKey || (e.shiftKey && !m.tso)) return;
        // An illegal step (or flush of an empty buffer) is refused by the store, which says why
        // in the notice. Shift+digit flushes under memory tso.
        store.eventRequested(makeEvent(e.shiftKey ? Ev.Flush : Ev.Step, k));
        e.preventDefault();
      } else if (!timeKeys && e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
        // Lecture mode: plain arrows turn slides, Shift+arrows travel in time.
        if (e.key === 'ArrowLeft') store.backRequested();
        else store.forwardRequested();
        e.preventDefault();
      } else if (
        !timeKeys &&
        (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.code === 'Space')
      ) {
        return;
      } else if (e.key === 'ArrowLeft') {
        store.backRequested();
        e.preventDefault();
      } else if (e.key === 'ArrowRight') {
        store.forwardRequested();
        e.preventDefault();
      } else if (spaceIsFree(e)) {
        store.playToggled();
        e.preventDefault();
      } else if (e.key === '?') {
        onHelp();
        e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [onHelp, timeKeys, on]);
}
