/** Says whether Live and Bench (which need SharedArrayBuffer) can run on this page, and if not, why. */
export function IsolationStatus({ isolated }: { isolated: boolean }) {
  if (isolated) {
    return (
      <div role="status" className="status status-on">
        <p>Cross-origin isolation is on: Live and Bench modes can use SharedArrayBuffer.</p>
      </div>
    );
  }
  return (
    <div role="status" className="status status-off">
      <p>
        Cross-origin isolation is off, so Live and Bench modes cannot run here. They share memory
        between workers through SharedArrayBuffer, which browsers only allow on a page served with
        these headers:
      </p>
      <ul>
        <li>
          <code>Cross-Origin-Opener-Policy: same-origin</code>
        </li>
        <li>
          <code>Cross-Origin-Embedder-Policy: require-corp</code>
        </li>
      </ul>
      <p>
        <code>npm run dev</code> and <code>npm run preview</code> set them; any other server must
        send them too. Step and Explore work without it.
      </p>
    </div>
  );
}
