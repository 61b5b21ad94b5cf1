import { useEffect, useRef } from 'react';

/** The keyboard shortcuts, in a modal dialog (Escape closes it). */
export function ShortcutSheet({
  open,
  onClose,
  lecture = false,
}: {
  open: boolean;
  onClose: () => void;
  /** Beside lecture slides: the arrows and Space turn slides, Shift+arrows step in time. */
  lecture?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-label="Keyboard shortcuts" onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      <dl>
        <dt>0 … 8</dt>
        <dd>Step CPU 0 … 8 (other CPUs: Tab to their Step button)</dd>
        <dt>Shift + 0 … 8</dt>
        <dd>Under memory tso: flush CPU 0 … 8&rsquo;s oldest buffered store to memory</dd>
        <dt>Alt + Shift + 0 … 8</dt>
        <dd>
          CPU hotplug: take CPU 0 … 8 offline, or back online (where the program gives it dead
          callbacks)
        </dd>
        {lecture ? (
          <>
            <dt>→, PageDown or Space / ←, PageUp</dt>
            <dd>Next / previous slide (the slide sets the stage again)</dd>
            <dt>Shift + ← / Shift + →</dt>
            <dd>Step back / forward (redo), on this slide</dd>
            <dt>Escape</dt>
            <dd>Leave the lecture for Step mode, at the moment shown</dd>
          </>
        ) : (
          <>
            <dt>← / →</dt>
            <dd>Step back / forward (redo)</dd>
            <dt>Space</dt>
            <dd>Play / pause the random scheduler</dd>
          </>
        )}
        <dt>?</dt>
        <dd>This sheet</dd>
      </dl>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </dialog>
  );
}
