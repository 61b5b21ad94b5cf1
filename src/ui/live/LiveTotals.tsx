import { formatRate } from '../../live/format.ts';
import type { LiveReading, Relevant } from '../../live/readout.ts';
import { sumWindowText } from '../../charts/errorBand.ts';

const fmt = (v: number | bigint) => v.toLocaleString('en-US');

/** A row of one count. */
function CountRow({ label, value }: { label: string; value: number }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{fmt(value)}</td>
    </tr>
  );
}

/** The counter's numbers: the exact total against what memory holds, read() and sum(). */
export function LiveTotals({
  reading,
  atRest,
  relevant,
  readName,
  sumName,
}: {
  reading: LiveReading;
  atRest: boolean;
  relevant: Relevant;
  /** The read's kernel name: percpu_counter_read(), get_nr_files(). */
  readName: string;
  /** The sum's name as the program declares it: __percpu_counter_sum(). */
  sumName: string;
}) {
  const t = reading.total;
  const seconds = reading.ms / 1000;
  const lostNote = atRest ? 'exact: every CPU is at rest' : 'while running, adds in flight blur it';
  return (
    <table className="live-totals">
      <caption>Counter{atRest ? ' (stopped)' : ' (live)'}</caption>
      <tbody>
        <tr>
          <th scope="row">Exact total (initial + every add)</th>
          <td>{fmt(reading.exact)}</td>
        </tr>
        <tr>
          <th scope="row">Counter in memory</th>
          <td>{fmt(reading.value)}</td>
        </tr>
        <tr className={reading.lost !== 0 && atRest ? 'bad' : undefined}>
          <th scope="row">Lost updates</th>
          <td>
            {fmt(reading.lost)} <span className="hint">({lostNote})</span>
          </td>
        </tr>
        {reading.read && (
          <tr>
            <th scope="row">{readName}</th>
            <td>
              {fmt(reading.read.value)}{' '}
              <span className="hint">
                error {reading.read.error}, band ±{reading.read.bound}
              </span>
            </td>
          </tr>
        )}
        {reading.sum && (
          <tr>
            <th scope="row">Last {sumName}</th>
            <td>
              {fmt(reading.sum.value)}{' '}
              <span className="hint">{sumWindowText(reading.sum.error)}</span>
            </td>
          </tr>
        )}
        {reading.sum && (
          <tr className={reading.badSums > 0 ? 'bad' : undefined}>
            <th scope="row">sum() calls outside their window</th>
            <td>
              {fmt(reading.badSums)} <span className="hint">(each judged as it returned)</span>
            </td>
          </tr>
        )}
        <tr>
          <th scope="row">Adds</th>
          <td>
            {fmt(t.adds)}{' '}
            <span className="hint">({formatRate(seconds > 0 ? t.adds / seconds : 0)}/s)</span>
          </td>
        </tr>
        {t.calls > 0 && <CountRow label="sum() / read() calls" value={t.calls} />}
        {relevant.folds && <CountRow label="Folds (batch overflows)" value={t.folds} />}
        {relevant.bumps && <CountRow label="Sequence bumps" value={t.bumps} />}
        {relevant.retries && <CountRow label="Sum retries" value={reading.retries} />}
        {relevant.spins && <CountRow label="Lock spins" value={t.spins} />}
        {reading.hotplugs !== null && (
          <tr>
            <th scope="row">CPU hotplug events</th>
            <td>
              {fmt(reading.hotplugs)}{' '}
              <span className="hint">
                (offlines and onlines;{' '}
                {reading.offline.length === 0
                  ? 'every CPU online'
                  : `offline now: ${reading.offline.map((k) => `CPU${String(k)}`).join(', ')}`}
                )
              </span>
            </td>
          </tr>
        )}
        <tr>
          <th scope="row">IRQs / NMIs / migrations</th>
          <td>
            {fmt(t.irqs)} / {fmt(t.nmis)} / {fmt(t.migrations)}
          </td>
        </tr>
        <tr>
          <th scope="row">Time</th>
          <td>{seconds.toFixed(1)} s</td>
        </tr>
      </tbody>
    </table>
  );
}
