/**
 * The Explore panel's run button: "Explore", or "Cancel" while an answer is on its way. The
 * explorer (sc, tso) and the axiomatic engine (lkmm) both use it; one button element, so focus
 * stays on it when it turns from one into the other.
 */
export function ExploreOrCancel({
  running,
  onExplore,
  onCancel,
}: {
  running: boolean;
  onExplore: () => void;
  onCancel: () => void;
}) {
  return (
    <button
      type="button"
      onClick={() => {
        if (running) onCancel();
        else onExplore();
      }}
    >
      {running ? 'Cancel' : 'Explore'}
    </button>
  );
}
