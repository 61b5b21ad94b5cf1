// npm run conformance -- DIR [--memory sc|tso|lkmm]: `lab check` on every .litmus file in DIR,
// compared with the herd7 answer beside it (`X.litmus.expected`, or `X.litmus.<memory>.expected`
// for a model of its own): the states, Ok or No, Positive and Negative, the flags and the
// Observation. One line a test, then a summary, which also counts the answers whose text is
// herd7's byte for byte (its `Time` line and the lab's `Model` line aside); `--text` shows how
// the others' text differs. Not part of `npm test`: it reads a directory of
// someone else's tests, which the project does not ship.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkFile } from '../src/cli/commands/check.ts';
import type { HerdAnswer } from '../src/lang/herdAnswer.ts';

const { values, positionals } = parseArgs({
  options: { memory: { type: 'string' }, verbose: { type: 'boolean' }, text: { type: 'boolean' } },
  allowPositionals: true,
});
const dir = positionals[0];
if (dir === undefined || positionals.length > 1) {
  console.error('usage: npm run conformance -- DIR [--memory sc|tso|lkmm] [--verbose] [--text]');
  process.exit(2);
}
const memory = values.memory;
if (memory !== undefined && !['sc', 'tso', 'lkmm'].includes(memory)) {
  console.error(`--memory takes sc, tso or lkmm, not '${memory}'`);
  process.exit(2);
}

/** What herd7 printed, read back from its text. */
interface Expected {
  readonly states: readonly string[];
  readonly ok: boolean;
  readonly positive: number;
  readonly negative: number;
  readonly flags: readonly string[];
  readonly observation: string;
}

function parseExpected(text: string): Expected | null {
  const lines = text.split('\n');
  const n = lines.findIndex((l) => l.startsWith('States '));
  const pn = /^Positive: (\d+) Negative: (\d+)/m.exec(text);
  const obs = /^Observation \S+ (\w+)/m.exec(text);
  if (n < 0 || !pn || !obs) return null;
  const count = Number((lines[n] as string).slice(7));
  return {
    states: lines.slice(n + 1, n + 1 + count),
    ok: /^(Loop )?Ok$/m.test(text),
    positive: Number(pn[1]),
    negative: Number(pn[2]),
    flags: lines.filter((l) => l.startsWith('Flag ')).map((l) => l.slice(5)),
    observation: obs[1] as string,
  };
}

/** How an answer differs from herd7's, in a few words; empty when it does not. */
function differences(a: HerdAnswer, e: Expected): string[] {
  const out: string[] = [];
  const got = new Set(a.states);
  const want = new Set(e.states);
  const missing = [...want].filter((s) => !got.has(s));
  const extra = [...got].filter((s) => !want.has(s));
  if (missing.length > 0) out.push(`${missing.length} state(s) missing`);
  if (extra.length > 0) out.push(`${extra.length} state(s) herd7 does not have`);
  if (a.ok !== e.ok) out.push(`${a.ok ? 'Ok' : 'No'} where herd7 says ${e.ok ? 'Ok' : 'No'}`);
  if (a.positive !== e.positive || a.negative !== e.negative)
    out.push(`Positive ${a.positive} Negative ${a.negative} (herd7: ${e.positive}, ${e.negative})`);
  if (a.flags.join(',') !== e.flags.join(','))
    out.push(`flags [${a.flags.join(', ')}] (herd7: [${e.flags.join(', ')}])`);
  if (a.observation !== e.observation) out.push(`${a.observation} (herd7: ${e.observation})`);
  return out;
}

/** An answer's text without the lines that say how long it took or which engine answered. */
const comparable = (text: string): string =>
  text
    .split('\n')
    .filter((l) => !/^(Time|Model) /.test(l))
    .join('\n')
    .trimEnd();

/** The first line where the lab's text and herd7's part, as two lines to print. */
function firstDifference(lab: string, herd: string): string {
  const a = lab.split('\n');
  const b = herd.split('\n');
  const i = a.findIndex((l, k) => l !== b[k]);
  const k = i < 0 ? a.length : i;
  return `lab:   ${a[k] ?? '(end)'}\n    herd7: ${b[k] ?? '(end)'}`;
}

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.litmus'))
  .sort();
const tally = { exact: 0, different: 0, refused: 0, unanswered: 0, identical: 0 };
const started = performance.now();
for (const f of files) {
  const path = join(dir, f);
  const own = memory === undefined ? null : `${path}.${memory}.expected`;
  const expectedPath = own !== null && existsSync(own) ? own : `${path}.expected`;
  let answer: HerdAnswer;
  try {
    answer = checkFile(path, memory === undefined ? {} : { memory }).answer;
  } catch (e) {
    tally.refused++;
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    console.log(`REFUSED  ${f}: ${why ?? ''}`);
    continue;
  }
  const sameModel = answer.model === 'lkmm' || expectedPath === own;
  const expectedText = existsSync(expectedPath) ? readFileSync(expectedPath, 'utf8') : null;
  const expected = expectedText === null ? null : parseExpected(expectedText);
  const summary = `${answer.model} ${answer.observation} ${answer.positive} ${answer.negative}`;
  if (!expected || !sameModel) {
    tally.unanswered++;
    console.log(
      `ANSWER   ${f}: ${summary}${expected ? ' (herd7 answered under lkmm: not compared)' : ' (no herd7 answer beside it)'}`,
    );
    continue;
  }
  const diff = differences(answer, expected);
  const same = comparable(answer.text) === comparable(expectedText ?? '');
  if (same) tally.identical++;
  else if (values.text === true)
    console.log(
      `TEXT     ${f}:\n    ${firstDifference(comparable(answer.text), comparable(expectedText ?? ''))}`,
    );
  if (diff.length === 0) {
    tally.exact++;
    console.log(`EXACT    ${f}: ${summary}`);
  } else {
    tally.different++;
    console.log(`DIFFERS  ${f}: ${diff.join('; ')}`);
    if (values.verbose === true) console.log(answer.text.replace(/^/gm, '    '));
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(2);
console.log(
  `\n${files.length} tests under ${memory ?? 'each file’s default model (lkmm for herd7 files)'}: ` +
    `${tally.exact} exact, ${tally.different} different, ${tally.refused} refused, ` +
    `${tally.unanswered} without a herd7 answer to compare; ${tally.identical} byte-identical to herd7's text; ${seconds} s`,
);
process.exitCode = tally.different + tally.refused > 0 ? 1 : 0;
