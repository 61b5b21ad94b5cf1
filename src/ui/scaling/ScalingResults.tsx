import { type ReactNode, useState } from 'react';
import { signedShort } from '../../live/format.ts';
import { GroupedBars } from '../../charts/GroupedBars.tsx';
import { AccuracyLines } from '../../charts/AccuracyLines.tsx';
import { ScalingLines } from '../../charts/ScalingLines.tsx';
import { formatRate } from '../../live/format.ts';
import {
  reportCsv,
  reportJson,
  reportMarkdown,
  reportRows,
  ROW_HEADINGS,
} from '../../live/scaling/export.ts';
import { headline } from '../../live/scaling/headline.ts';
import type { ProbeResult } from '../../live/probe.ts';
import type { SweepReport, SweepResult } from '../../live/scaling/measure.ts';
import {
  accuracyView,
  efficiencyView,
  layoutView,
  summerView,
  throughputView,
} from '../../live/scaling/views.ts';
import { downloadText } from '../export/exportImage.ts';

const perSecond = (v: number) => `${formatRate(v)}/s`;
/** Axis ticks: "300 M", short enough for the margin. */
const tick = (v: number) => signedShort(v).replace('+', '');
const percent = (v: number) => `${String(Math.round(v * 100))} %`;
/** How a chart writes its values: on the axis, and for a screen reader. */
const RATES = { yLabel: tick, describe: perSecond };
const SHARES = { yLabel: percent, describe: percent };

/** A figure of adds per second in grouped bars: one group per category, one bar per series. */
function AddsBars({
  caption,
  label,
  view,
}: {
  caption: ReactNode;
  label: string;
  view: Pick<Parameters<typeof GroupedBars>[0], 'groups' | 'series'>;
}) {
  return (
    <figure>
      <figcaption>{caption}</figcaption>
      <GroupedBars label={label} groups={view.groups} series={view.series} {...RATES} />
    </figure>
  );
}

/** The charts, the headline and the table of what a sweep measured (so far, while it runs). */
export function ScalingResults({
  results,
  report,
  probe,
  cores,
  cannotShow,
}: {
  results: readonly SweepResult[];
  report: SweepReport | null;
  probe: ProbeResult | null;
  /** The machine's cores: the charts mark CPU counts above them. */
  cores: number;
  /** The sweep cannot show scaling here (ScalingFit says why): the headline says so. */
  cannotShow: boolean;
}) {
  const title = headline(results);
  const throughput = throughputView(results);
  const efficiency = efficiencyView(results);
  const layouts = layoutView(results);
  const summers = summerView(results);
  const accuracy = accuracyView(results);
  return (
    <section className="scaling-results" aria-label="Scaling results">
      {title && (
        <p className="headline" aria-label="Headline">
          {cannotShow
            ? `In absolute terms only, since this machine cannot show scaling (see above): ${title}`
            : title}
        </p>
      )}
      <div className="scaling-charts">
        <figure>
          <figcaption>
            Adds per second, all CPUs together (median of the runs, band from slowest to fastest)
          </figcaption>
          <ScalingLines
            label="Adds per second against CPUs"
            series={throughput}
            cores={cores}
            {...RATES}
          />
        </figure>
        {accuracy.length > 0 && (
          <figure>
            <figcaption>
              How far the cheap read is from the exact total while the CPUs add:
              percpu_counter_read() and the counter tree&rsquo;s approximate sum, the worst error
              measured (solid) and the bound (dashed), on a log scale
            </figcaption>
            <AccuracyLines series={accuracy} />
          </figure>
        )}
        {efficiency.length > 0 && (
          <figure>
            <figcaption>
              Per-CPU efficiency: each CPU&rsquo;s adds per second as a share of one CPU alone
              {cannotShow &&
                ' (on this machine it ranks how each counter bore the busy cores, not how it scales)'}
            </figcaption>
            <ScalingLines
              label="Per-CPU efficiency against CPUs"
              series={efficiency}
              cores={cores}
              {...SHARES}
            />
          </figure>
        )}
        {layouts && (
          <AddsBars
            caption={
              <>
                Padded against packed slots, {layouts.cpus} CPU{layouts.cpus > 1 ? 's' : ''}: adds
                per second
              </>
            }
            label="Padded against packed slots"
            view={layouts}
          />
        )}
        {summers && (
          <AddsBars
            caption={
              <>
                Who blocks whom, {summers.cpus} CPUs: the adders&rsquo; adds per second without and
                with a summer, and the summer&rsquo;s sums per second:{' '}
                {summers.sums
                  .map(
                    (s) =>
                      `${s.category} ${s.values.map((v) => (v === null ? '–' : perSecond(v))).join(' / ')}`,
                  )
                  .join('; ')}
              </>
            }
            label="Adds per second without and with a summer"
            view={summers}
          />
        )}
      </div>
      <SpinNote results={results} />
      <table className="scaling-table">
        <caption>Measurements</caption>
        <thead>
          <tr>
            {ROW_HEADINGS.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {reportRows({ ...(report ?? emptyReport), results }).map((row, i) => (
            <tr key={i} className={results[i]?.exact === false ? 'bad' : undefined}>
              {row.map((cell, j) =>
                j === 0 ? (
                  <th key={j} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={j}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {report && <Exports report={report} probe={probe} />}
    </section>
  );
}

const emptyReport: SweepReport = {
  machine: { cores: 0, runtime: '' },
  settings: { seconds: 0, warmupSeconds: 0, repeat: 0, preset: 'kernel' },
  results: [],
  cancelled: false,
};

/** Where CPUs spent their steps spinning on a lock, say so: it is what slows them. */
function SpinNote({ results }: { results: readonly SweepResult[] }) {
  const spinning = results
    .map((r) => {
      const spins = r.spinsPerSecondPerCpu.reduce((a, b) => a + b, 0);
      const steps = r.instructionsPerSecondPerCpu.reduce((a, b) => a + b, 0);
      return { r, share: steps > 0 ? spins / steps : 0 };
    })
    .filter((x) => x.share >= 0.2)
    .sort((a, b) => b.share - a.share);
  const top = spinning[0];
  if (!top) return null;
  return (
    <p className="hint">
      Lock contention: in <code>{top.r.scenario}</code> on {top.r.cpus} CPUs, {percent(top.share)}{' '}
      of all instructions were spins on a held lock. A CPU that finds the lock taken repeats{' '}
      <code>spin_lock</code> until it is free; those steps do no work, so the more CPUs share a
      lock, the less of their time goes into adding.
    </p>
  );
}

function Exports({ report, probe }: { report: SweepReport; probe: ProbeResult | null }) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div className="exports" role="group" aria-label="Export">
      <button
        type="button"
        onClick={() => {
          downloadText('percpu-lab-scaling.json', reportJson(report, probe), 'application/json');
        }}
      >
        Export JSON
      </button>
      <button
        type="button"
        onClick={() => {
          downloadText('percpu-lab-scaling.csv', reportCsv(report), 'text/csv');
        }}
      >
        Export CSV
      </button>
      <button
        type="button"
        onClick={() => {
          navigator.clipboard.writeText(reportMarkdown(report)).then(
            () => {
              setCopied('Copied the table as Markdown.');
            },
            () => {
              setCopied('The browser refused the clipboard; use Export CSV instead.');
            },
          );
        }}
      >
        Copy as Markdown
      </button>
      <span role="status" aria-label="Copy status">
        {copied}
      </span>
    </div>
  );
}
