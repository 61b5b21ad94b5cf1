import { themeQuery } from '../theme/theme.ts';
import { type ReactNode, useState } from 'react';
import { Ev, eventTarget, eventType } from '../../machine/events.ts';
import { currentState } from '../../store/session.ts';
import { PROGRAM_ID } from '../../scenarios/program.ts';
import { formatSchedule } from '../../machine/schedule.ts';
import { formatLiveLink } from '../../store/liveLinkFormat.ts';
import type { Session } from '../../store/session.ts';
import { paramsText } from '../../scenarios/params.ts';
import { linkOf } from '../../store/stepStore.ts';
import { type ControlView, controlsOf } from './view.ts';
import { stepStore, useStep, useStepFields } from './useStep.ts';
import { embedded, fullLabHref } from '../embed.ts';
import { liveSpecOf } from '../../live/specs.ts';

/** A scheduler button: aria-disabled (still focusable) with the reason as its description. */
function EventButton({
  c,
  label,
  keyHint,
  short,
}: {
  c: ControlView;
  label: string;
  keyHint?: string;
  /** A shorter visible text inside its lane (its first word, so the name still contains it). */
  short?: string;
}) {
  const disabled = c.why !== '';
  return (
    <button
      type="button"
      aria-label={short ? label : undefined}
      aria-disabled={disabled}
      // The title only carries the reason a control is refused (it becomes its description).
      title={disabled ? c.why : undefined}
      aria-keyshortcuts={keyHint}
      onClick={() => {
        if (!disabled) stepStore.getState().eventRequested(c.ev);
      }}
    >
      {short ?? label}
    </button>
  );
}

function MigrateControl({ k, options }: { k: number; options: readonly ControlView[] }) {
  const [target, setTarget] = useState(0);
  const chosen = options[Math.min(target, options.length - 1)];
  if (!chosen) return null;
  return (
    <span className="migrate">
      <EventButton c={chosen} label={`Migrate task from CPU ${k}`} short="Migrate" />
      <label>
        <span className="to">to</span>
        <select
          aria-label={`Migrate CPU ${k}'s task to`}
          value={target}
          onChange={(e) => {
            setTarget(Number(e.target.value));
          }}
        >
          {options.map((o, i) => (
            <option key={o.ev} value={i}>
              CPU {eventTarget(o.ev)}
            </option>
          ))}
        </select>
      </label>
    </span>
  );
}

/**
 * A time-travel button with its key: it asks the store for `action`; `off` makes it
 * aria-disabled (still focusable), as at either end of the timeline.
 */
function TimeButton({
  keys,
  off,
  action,
  children,
}: {
  keys: string;
  off?: boolean;
  action: 'backRequested' | 'forwardRequested' | 'playToggled';
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-keyshortcuts={keys}
      aria-disabled={off}
      onClick={() => {
        stepStore.getState()[action]();
      }}
    >
      {children}
    </button>
  );
}

/**
 * One CPU's scheduler buttons: step, IRQ, NMI, preempt, migrate, under memory tso flush, and for
 * a CPU with dead callbacks (DEADk()) offline or online (shown in its lane).
 */
export function CpuButtons({ k }: { k: number }) {
  const session = useStep((s) => s.session);
  const r = controlsOf(session.instance.machine, currentState(session))[k];
  if (!r) return null;
  return (
    <div className="cpu-row" role="group" aria-label={`CPU ${k} controls`}>
      <EventButton
        c={r.step}
        label={`Step CPU ${k}`}
        short="Step"
        keyHint={k < 9 ? String(k) : undefined}
      />
      {r.irq && <EventButton c={r.irq} label={`IRQ on CPU ${k}`} short="IRQ" />}
      {r.nmi && <EventButton c={r.nmi} label={`NMI on CPU ${k}`} short="NMI" />}
      <EventButton c={r.preempt} label={`Preempt CPU ${k}`} short="Preempt" />
      {r.migrate.length > 0 && <MigrateControl k={k} options={r.migrate} />}
      {r.flush && (
        <EventButton
          c={r.flush}
          label={`Flush CPU ${k}'s oldest buffered store`}
          short="Flush"
          keyHint={k < 9 ? `Shift+${k}` : undefined}
        />
      )}
      {r.hotplug && (
        <EventButton
          c={r.hotplug}
          label={
            eventType(r.hotplug.ev) === Ev.Offline
              ? `Take CPU ${k} offline`
              : `Bring CPU ${k} back online`
          }
          short={eventType(r.hotplug.ev) === Ev.Offline ? 'Offline' : 'Online'}
          keyHint={k < 9 ? `Alt+Shift+${k}` : undefined}
        />
      )}
    </div>
  );
}

/**
 * Time travel, play and sharing (the CPUs' own buttons are in their lanes). Beside lecture
 * slides the arrows turn slides, so stepping in time is Shift+arrow.
 */
export function Controls({ lecture = false }: { lecture?: boolean }) {
  const { session, playing, speed } = useStepFields('session', 'playing', 'speed');
  const [copied, setCopied] = useState('');
  const actions = stepStore.getState();
  return (
    <section className="controls" aria-label="Scheduler">
      <div className="time-controls">
        <TimeButton
          keys={lecture ? 'Shift+ArrowLeft' : 'ArrowLeft'}
          off={session.cursor === 0}
          action="backRequested"
        >
          Step back
        </TimeButton>
        <TimeButton
          keys={lecture ? 'Shift+ArrowRight' : 'ArrowRight'}
          off={session.cursor >= session.events.length}
          action="forwardRequested"
        >
          Step forward
        </TimeButton>
        <TimeButton keys="Space" action="playToggled">
          {playing ? 'Pause' : 'Play'}
        </TimeButton>
        <label>
          Speed
          <input
            type="range"
            aria-label="Speed"
            min={0.5}
            max={20}
            step={0.5}
            value={speed}
            onChange={(e) => {
              actions.speedChanged(Number(e.target.value));
            }}
          />
          <span>{speed} steps/s</span>
        </label>
        <button
          type="button"
          onClick={() => {
            actions.resetRequested();
          }}
        >
          Reset
        </button>
        <button
          type="button"
          className="share"
          onClick={() => {
            const { session, challenge } = stepStore.getState();
            // Beside slides the address is the lecture's (this slide, at this moment).
            const url = lecture
              ? location.href
              : `${location.origin}${location.pathname}${themeQuery()}${linkOf(session, challenge)}`;
            void navigator.clipboard.writeText(url).then(
              () => {
                setCopied('Link copied');
              },
              () => {
                setCopied(url);
              },
            );
          }}
        >
          Copy link
        </button>
        {embedded ? (
          // A frame is never cross-origin isolated: Live mode opens as a page of its own.
          <a href={fullLabHref(replayLink(session))} target="_blank" rel="noopener">
            Replay on real workers (opens the lab)
          </a>
        ) : (
          <a href={replayLink(session)}>Replay on real workers</a>
        )}
        <span role="status" className="copied">
          {copied}
        </span>
      </div>
    </section>
  );
}

/**
 * Live mode's lockstep replay of the schedule up to the moment shown, with Step's machine for
 * the free run too: its CPUs and the parameters a live run takes (not those the live loop sets,
 * nor the memory model: live CPUs are the hardware's).
 */
function replayLink(s: Session): string {
  const text = paramsText(s.params, s.scenario);
  const loop = Object.keys(liveSpecOf(s.scenario.id)?.loop(2, true) ?? {});
  const choices = Object.fromEntries(
    Object.entries(text).filter(([k]) => !loop.includes(k) && k !== 'cpus' && k !== 'memory'),
  );
  return formatLiveLink({
    scenario: s.scenario.id,
    cpus: typeof s.params.cpus === 'number' ? s.params.cpus : null,
    choices,
    program: s.scenario.id === PROGRAM_ID ? (s.scenario.text?.(s.params) ?? null) : null,
    replay: {
      schedule: formatSchedule(s.events.slice(0, s.cursor)),
      params: paramsText(s.params, s.scenario),
    },
  });
}
