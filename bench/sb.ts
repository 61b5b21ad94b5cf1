// npx tsx bench/sb.ts [--tries N] [--runs R] [--jitter J] [--json]
//
// The store-buffering litmus test (src/live/litmus/) on two Node worker threads: for each variant
// (plain, one-mb, mb), R runs (default 5) of N tries (default 1,000,000), the variants taking
// turns so a change in the machine's load hits each alike. Prints, per variant, the tries of a
// run, the four outcomes of the median run (by its 00 rate), the median 00 per million (with the
// lowest and highest) and the median tries per second.

import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { nodeSbThread } from '../src/cli/live/sbThreads.ts';
import { SB_OUTCOMES, SB_VARIANTS, SbLab, type SbResult } from '../src/live/litmus/sb.ts';
import { messageOf } from '../src/machine/errors.ts';

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function positive(name: string, text: string | undefined, fallback: number, zero = false): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < (zero ? 0 : 1)) {
    throw new Error(`--${name} takes a ${zero ? 'non-negative' : 'positive'} integer, not ${text}`);
  }
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tries: { type: 'string' },
      runs: { type: 'string' },
      jitter: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const tries = positive('tries', values.tries, 1_000_000);
  const runs = positive('runs', values.runs, 5);
  const jitter = positive('jitter', values.jitter, 0, true);

  const threads = [nodeSbThread(0), nodeSbThread(1)] as const;
  try {
    const lab = await SbLab.open(threads);
    const all = new Map(SB_VARIANTS.map((v) => [v, [] as SbResult[]]));
    for (let i = 0; i < runs; i++) {
      for (const v of SB_VARIANTS) all.get(v)?.push(await lab.run(v, tries, { jitter }));
    }
    const rows = SB_VARIANTS.map((v) => {
      const rs = all.get(v) ?? [];
      const byRate = [...rs].sort((a, b) => a.perMillion - b.perMillion);
      const mid = byRate[byRate.length >> 1];
      return {
        variant: v,
        tries,
        runs: rs.length,
        counts: mid?.counts,
        perMillion: median(rs.map((r) => r.perMillion)),
        perMillionMin: byRate[0]?.perMillion ?? 0,
        perMillionMax: byRate[byRate.length - 1]?.perMillion ?? 0,
        triesPerSecond: median(rs.map((r) => r.triesPerSecond)),
      };
    });
    if (values.json) {
      console.log(JSON.stringify({ node: process.version, arch: process.arch, jitter, rows }));
      return;
    }
    console.log(
      `SB litmus test on 2 worker threads (Node ${process.version}, ${process.arch}, ${availableParallelism()} cores), median of ${runs} runs of ${tries.toLocaleString('en-US')} tries${jitter ? `, jitter ${jitter}` : ''}`,
    );
    const head = [
      'variant',
      'tries',
      ...SB_OUTCOMES.map((o) => `r0r1=${o}`),
      '00 per M (min–max)',
      'tries/s',
    ];
    const body = rows.map((r) => [
      r.variant,
      r.tries.toLocaleString('en-US'),
      ...SB_OUTCOMES.map((o) => (r.counts?.[o] ?? 0).toLocaleString('en-US')),
      `${r.perMillion.toFixed(1)} (${r.perMillionMin.toFixed(1)}–${r.perMillionMax.toFixed(1)})`,
      Math.round(r.triesPerSecond).toLocaleString('en-US'),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
    for (const line of [head, ...body]) {
      console.log(
        line
          .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
          .join('  '),
      );
    }
    console.log(
      '(r0r1=00 is the store-buffer outcome: forbidden under SC, allowed by x86-TSO unless both sides fence)',
    );
  } finally {
    for (const t of threads) t.terminate();
  }
}

main().catch((e: unknown) => {
  console.error(`bench/sb: ${messageOf(e)}`);
  process.exitCode = 1;
});
