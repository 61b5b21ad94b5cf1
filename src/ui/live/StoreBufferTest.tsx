import { useEffect, useId, useRef, useState } from 'react';
import { allowedOnTso, SB_VARIANTS, type SbResult, type SbVariant } from '../../live/litmus/sb.ts';
import { SbBridge } from '../../workers/sbBridge.ts';
import { messageOf } from '../../machine/errors.ts';

/** Tries per variant: about a second for all three on a laptop's cores. */
const TRIES = 1_000_000;

const WHAT: Readonly<Record<SbVariant, string>> = {
  plain: 'x = 1; r0 = y  ‖  y = 1; r1 = x',
  'one-mb': 'smp_mb() on the first side only',
  mb: 'smp_mb() on both sides',
};

/** What the page can tell of the CPU it runs on, from the browser's own report. */
function cpuFamily(): 'x86' | 'arm' | 'unknown' {
  const ua = navigator.userAgent;
  if (/arm|aarch64/i.test(ua)) return 'arm';
  if (/x86_64|x64|win64|wow64|intel|amd64|i[3-6]86/i.test(ua)) return 'x86';
  return 'unknown';
}

/**
 * The store-buffering litmus test on two real cores, with plain WebAssembly stores and loads: how
 * often both loads read 0 (which sequential consistency forbids), beside what the model says.
 */
export function StoreBufferTest() {
  const id = useId();
  const bridge = useRef<SbBridge | null>(null);
  // The test in progress stops when this aborts (Stop, or the view closing).
  const abort = useRef<AbortController | null>(null);
  const [results, setResults] = useState<readonly SbResult[]>([]);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const family = cpuFamily();

  useEffect(
    () => () => {
      abort.current?.abort();
      bridge.current?.terminate();
    },
    [],
  );

  const run = async () => {
    bridge.current ??= new SbBridge();
    const stop = new AbortController();
    abort.current = stop;
    setBusy(true);
    setResults([]);
    const done: SbResult[] = [];
    try {
      for (const v of SB_VARIANTS) {
        setStatus(`Running ${v}: ${TRIES.toLocaleString('en')} tries on two workers…`);
        done.push(await bridge.current.run(v, TRIES, stop.signal));
        setResults([...done]);
      }
      setStatus(`Done: ${TRIES.toLocaleString('en')} tries of each.`);
    } catch (e) {
      setStatus(`The test stopped: ${messageOf(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sb-test" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Store buffers on this machine&rsquo;s cores</h3>
      <p className="hint">
        Two workers run the store-buffering test as plain WebAssembly stores and loads, each try
        started together: <code>x = 1; r0 = y</code> on one, <code>y = 1; r1 = x</code> on the
        other. Under <code>memory sc</code> one of them must read 1. A store that waits in its
        CPU&rsquo;s store buffer lets both read 0; <code>smp_mb()</code> (WebAssembly&rsquo;s{' '}
        <code>atomic.fence</code>, MFENCE on x86) drains it first.
      </p>
      <p className="hint" aria-label="This CPU">
        {family === 'arm'
          ? 'This browser reports an Arm CPU: its hardware allows more than x86-TSO (message passing and load buffering can fail too), so it may show more than memory tso does. The lab does not model Arm yet.'
          : family === 'x86'
            ? 'This browser reports an x86 CPU: its memory model is x86-TSO, which memory tso models.'
            : 'This browser does not say which CPU it runs on.'}
      </p>
      <button type="button" disabled={busy} onClick={() => void run()}>
        Run the store-buffering test
      </button>{' '}
      {busy && (
        <button
          type="button"
          onClick={() => {
            abort.current?.abort();
          }}
        >
          Stop the test
        </button>
      )}
      <p role="status" aria-label="Store-buffering test status">
        {status}
      </p>
      {results.length > 0 && (
        <table aria-label="Store-buffering results">
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Both read 0, per million tries</th>
              <th scope="col">Tries</th>
              <th scope="col">memory sc says</th>
              <th scope="col">memory tso says</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.variant}>
                <th scope="row">
                  {r.variant} <span className="hint">({WHAT[r.variant]})</span>
                </th>
                <td>{Math.round(r.perMillion).toLocaleString('en')}</td>
                <td>{r.tries.toLocaleString('en')}</td>
                <td>never</td>
                <td>{allowedOnTso(r.variant, '00') ? 'allowed' : 'never'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
