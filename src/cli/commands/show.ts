// `lab show <id>`: everything a scenario defines: listing, parameters, observables, invariants,
// handlers, explore bounds, witnesses and the lesson.

import { jsonValue } from '../../scenarios/outcome.ts';
import type { ParamSpec, Scenario } from '../../scenarios/types.ts';
import { paramsArg, parseCommand, scenarioArg, scenarioOptions } from '../args.ts';
import { toJson } from '../json.ts';

function paramJson(p: ParamSpec) {
  const base = { name: p.name, kind: p.kind, description: p.description, default: p.default };
  if (p.kind === 'choice') return { ...base, choices: p.choices };
  if (p.kind === 'list') return { ...base, min: p.min, max: p.max, maxLength: p.maxLength };
  return { ...base, min: p.min, max: p.max };
}

export function show(argv: readonly string[]): string {
  const { values, positionals } = parseCommand(argv, scenarioOptions, { positionals: 1 });
  const sc: Scenario = scenarioArg(positionals[0]);
  const params = paramsArg(sc, values.set, values.preset, values.memory);
  const { listing } = sc.build(params);
  const doc = {
    id: sc.id,
    title: sc.title,
    group: sc.group,
    source: sc.source,
    summary: sc.summary,
    reconstruction: sc.reconstruction,
    params: sc.params.map(paramJson),
    presets: Object.fromEntries(
      Object.entries(sc.presets).map(([name, pr]) => [
        name,
        { description: pr.description, values: pr.apply(params) },
      ]),
    ),
    listing: listing.lines.map((text, i) => ({ line: i + 1, text })),
    notes: listing.notes,
    observables: sc.observables(params).map(({ name, description }) => ({ name, description })),
    invariants: sc.invariants.map(({ id, when, description }) => ({ id, when, description })),
    handlers: sc.handlers,
    bounds: sc.bounds,
    guarantees: sc.guarantees,
    witnesses: sc.witnesses.map((w) => ({
      ...w,
      expect: Object.fromEntries(Object.entries(w.expect).map(([k, v]) => [k, jsonValue(v)])),
    })),
    lesson: sc.lesson,
  };
  if (values.json) return toJson(doc);

  const out: string[] = [];
  out.push(`${sc.id}: ${sc.title}${sc.reconstruction ? '  [reconstruction]' : ''}`);
  out.push(sc.summary, `Source: ${sc.source}`, '');
  out.push('Listing:');
  listing.lines.forEach((t, i) =>
    out.push(`${String(i + 1).padStart(3)}  ${t.replace(/\t/g, '    ')}`),
  );
  for (const n of listing.notes) out.push(`  note: ${n}`);
  out.push('', 'Parameters:');
  for (const p of sc.params) {
    const range = p.kind === 'choice' ? p.choices.join(' | ') : `${p.min}..${p.max}`;
    out.push(`  ${p.name} (default ${String(p.default)}; ${range}): ${p.description}`);
  }
  for (const [name, pr] of Object.entries(sc.presets)) {
    const preset = pr.apply(params);
    out.push(
      `  preset ${name}: ${Object.entries(preset)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(' ')}`,
    );
  }
  out.push('', 'Observables:');
  for (const o of sc.observables(params)) out.push(`  ${o.name}: ${o.description}`);
  out.push('', 'Invariants:');
  for (const i of sc.invariants) out.push(`  ${i.id} (${i.when}): ${i.description}`);
  out.push('', `Handlers: ${sc.handlers.length ? sc.handlers.join('; ') : 'none'}`);
  const b = sc.bounds;
  out.push(
    `Explore bounds: irqs ${b.irqs}, nmis ${b.nmis}, preemptions ${b.preemptions}, migrations ${b.migrations}`,
  );
  for (const [variant, ids] of Object.entries(sc.guarantees)) {
    out.push(`Guarantees${variant === '*' ? '' : ` (variant ${variant})`}: ${ids.join(', ')}`);
  }
  out.push('', 'Witnesses:');
  for (const w of sc.witnesses) {
    const sets = Object.entries(w.params)
      .map(([k, v]) => `--set ${k}=${String(v)}`)
      .join(' ');
    out.push(`  ${w.name}: ${w.description}`, `    lab replay ${sc.id} "${w.schedule}" ${sets}`);
  }
  out.push(
    '',
    `Lesson: ${sc.lesson.summary}`,
    `Ask: ${sc.lesson.question}`,
    `Answer: ${sc.lesson.answer}`,
  );
  return out.join('\n');
}
