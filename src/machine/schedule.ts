// Schedule strings: a compact, readable record of scheduler events that replays exactly.
//
//   schedule := item*                       items separated by spaces or commas
//   item     := event ('*' count)?          "0*31" = CPU0 steps 31 times
//             | '(' item* ')' '*' count     "(0 1)*3" = 0 1 0 1 0 1
//   event    := N                           step CPU N (run one instruction of its top context)
//             | 'irq' N                     raise an IRQ on CPU N
//             | 'nmi' N                     raise an NMI on CPU N
//             | 'pre' N                     preempt CPU N (switch to its next waiting task)
//             | 'mig' N '>' M               preempt CPU N's task and move it to CPU M
//             | 'flush' N                   under TSO: CPU N's oldest buffered store reaches memory
//             | 'off' N                     CPU hotplug: take CPU N offline (its dead callbacks start)
//             | 'on' N                      CPU hotplug: bring CPU N back online
//
// `formatSchedule` writes one event per token and folds runs of 3 or more into `token*n`, so
// parse(format(events)) gives the same events back.

import { Ev, formatEvent, makeEvent } from './events.ts';

/** Most events one schedule may expand to (guards against "0*999999999"). */
export const MAX_SCHEDULE_EVENTS = 1_000_000;

/** A malformed schedule: `position` is the 0-based offset of the first bad character. */
export class ScheduleSyntaxError extends Error {
  constructor(
    readonly position: number,
    readonly reason: string,
    readonly source: string,
  ) {
    super(`schedule, column ${position + 1}: ${reason}`);
  }
}

const SEP = /[\s,]/;

export function parseSchedule(text: string): number[] {
  return parseScheduleWithOffsets(text).events;
}

/** Parses a schedule and also returns, for each event, the offset of the token it came from. */
export function parseScheduleWithOffsets(text: string): { events: number[]; offsets: number[] } {
  let i = 0;

  const fail = (at: number, reason: string): never => {
    throw new ScheduleSyntaxError(at, reason, text);
  };

  const skipSeparators = () => {
    while (i < text.length && SEP.test(text[i] as string)) i++;
  };

  const number = (what: string, max: number): number => {
    const start = i;
    while (i < text.length && /[0-9]/.test(text[i] as string)) i++;
    if (i === start) {
      const got = i < text.length ? `'${text[i]}'` : 'the end';
      return fail(start, `expected ${what}, found ${got}`);
    }
    const n = Number(text.slice(start, i));
    if (n > max) return fail(start, `${what} must be at most ${max}, got ${n}`);
    return n;
  };

  const repeatCount = (): number => {
    if (text[i] !== '*') return 1;
    i++;
    const at = i;
    const n = number('a repeat count', MAX_SCHEDULE_EVENTS);
    if (n < 1) fail(at, 'a repeat count must be at least 1');
    return n;
  };

  const event = (): number => {
    const at = i;
    const word = /^(irq|nmi|pre|mig|flush|off|on)/.exec(text.slice(i, i + 5))?.[1];
    if (word === undefined) {
      if (/[0-9]/.test(text[i] ?? '')) return makeEvent(Ev.Step, number('a CPU number', 255));
      const tok = /^[^\s,()*]+/.exec(text.slice(i))?.[0] ?? text[i] ?? '';
      return fail(
        at,
        `unknown event '${tok}': expected N, irqN, nmiN, preN, migN>M, flushN, offN or onN`,
      );
    }
    i += word.length;
    const k = number(`a CPU number after '${word}'`, 255);
    switch (word) {
      case 'flush':
        return makeEvent(Ev.Flush, k);
      case 'irq':
        return makeEvent(Ev.Irq, k);
      case 'nmi':
        return makeEvent(Ev.Nmi, k);
      case 'pre':
        return makeEvent(Ev.Preempt, k);
      case 'off':
        return makeEvent(Ev.Offline, k);
      case 'on':
        return makeEvent(Ev.Online, k);
      default: {
        if (text[i] !== '>') {
          const got = i < text.length ? `'${text[i]}'` : 'the end';
          return fail(i, `expected '>' and a target CPU after 'mig${k}', found ${got}`);
        }
        i++;
        return makeEvent(Ev.Migrate, k, number('a target CPU number', 255));
      }
    }
  };

  // Items up to the end, or up to the ')' closing the group opened at `open`.
  type Parsed = { events: number[]; offsets: number[] };
  const items = (open: number): Parsed => {
    const mine: Parsed = { events: [], offsets: [] };
    const append = (part: Parsed, times: number, at: number) => {
      if (mine.events.length + part.events.length * times > MAX_SCHEDULE_EVENTS) {
        fail(at, `the schedule expands to more than ${MAX_SCHEDULE_EVENTS} events`);
      }
      for (let r = 0; r < times; r++) {
        for (let j = 0; j < part.events.length; j++) {
          mine.events.push(part.events[j] as number);
          mine.offsets.push(part.offsets[j] as number);
        }
      }
    };
    for (;;) {
      skipSeparators();
      if (i >= text.length) {
        if (open >= 0) fail(open, "this '(' is never closed");
        return mine;
      }
      const at = i;
      if (text[i] === ')') {
        if (open < 0) fail(i, "')' without a matching '('");
        i++;
        return mine;
      }
      if (text[i] === '(') {
        i++;
        const inner = items(at);
        if (text[i] !== '*') fail(i, "a group '( … )' must be followed by '*count'");
        append(inner, repeatCount(), at);
      } else {
        const e = event();
        append({ events: [e], offsets: [at] }, repeatCount(), at);
      }
      if (i < text.length && !SEP.test(text[i] as string) && text[i] !== ')' && text[i] !== '(') {
        fail(i, `unexpected '${text[i]}' after an event: separate events with spaces`);
      }
    }
  };

  return items(-1);
}

/** The canonical string of a list of events (runs of 3 or more folded as `token*n`). */
export function formatSchedule(events: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < events.length;) {
    const e = events[i] as number;
    let j = i + 1;
    while (j < events.length && events[j] === e) j++;
    const tok = formatEvent(e);
    const run = j - i;
    if (run >= 3) parts.push(`${tok}*${run}`);
    else for (let r = 0; r < run; r++) parts.push(tok);
    i = j;
  }
  return parts.join(' ');
}
