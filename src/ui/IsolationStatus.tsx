/** Says whether Live mode (which needs SharedArrayBuffer) can run on this page, and if not, why. */
export function IsolationStatus({ isolated }: { isolated: boolean }) {
  if (isolated) {
    return (
      <div role="status" className="status status-on">
        <p>Cross-origin isolation is on: Live mode can use SharedArrayBuffer.</p>
      </div>
    );
  }
  return (
    <div role="status" className="status status-off">
      <p>
        Cross-origin isolation is off, so Live mode cannot run here. Its workers share memory
        through SharedArrayBuffer, which browsers only allow on a page served with these headers:
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
