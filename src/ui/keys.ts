// What counts as a keyboard command on the stage, for Step mode's keys and lecture mode's alike.

/**
 * True when a key press is a command for the page: not typing in a field or choosing in a
 * select, not behind an open dialog (the shortcut sheet), and without Ctrl, Meta or Alt (the
 * browser's own shortcuts).
 */
export function isStageKey(e: KeyboardEvent, altShift = false): boolean {
  const t = e.target as HTMLElement | null;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA'))
    return false;
  if (document.querySelector('dialog[open]')) return false;
  // Alt+Shift+digit is Step's hotplug key: Alt alone stays the browser's.
  return !(e.ctrlKey || e.metaKey || (e.altKey && !(altShift && e.shiftKey)));
}

/** Space keeps its own meaning on buttons, links and disclosure summaries. */
export function spaceIsFree(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return e.code === 'Space' && !t?.closest('button, a, summary, [role="button"]');
}
