// Keyboard control of Step mode. Digits are matched by event.code (Digit0 … Digit8), so they work
// on every keyboard layout; ←/→ travel in time, Space plays or pauses, ? opens the sheet.

import { useEffect } from 'react';
import { Ev, makeEvent } from '../../machine/events.ts';
import { stepStore } from './useStep.ts';

/**
 * `timeKeys` false leaves ←, → and Space to someone else (lecture mode turns slides with them);
 * the digits and ? keep working.
 */
export function useStepKeys(onHelp: () => void, timeKeys = true): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      // Typing in a field or choosing in a select is not a command, nor is anything behind an
      // open dialog (the shortcut sheet).
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA'))
        return;
      if (document.querySelector('dialog[open]')) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const store = stepStore.getState();
      const digit = /^Digit([0-8])$/.exec(e.code);
      if (digit && !e.shiftKey) {
        const k = Number(digit[1]);
        if (k >= store.session.instance.machine.cpus) return;
        // An illegal step is refused by the store, which says why in the notice.
        store.eventRequested(makeEvent(Ev.Step, k));
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
      } else if (e.code === 'Space' && !t?.closest('button, a, summary, [role="button"]')) {
        // Space keeps its own meaning on buttons, links and disclosure summaries.
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
  }, [onHelp, timeKeys]);
}
