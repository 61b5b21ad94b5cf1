// The teacher's class, beside the stage on the projector: the room's code and QR code, who is
// present, "Ask the room" with the answers drawn live, the reveal, and the students' challenge
// attempts. Every change of the Step link is pushed to the room as a moment. Loaded only when a
// class is started (or resumed after a reload): a plain Step link does not carry it.

import { useEffect, useMemo, useRef, useState } from 'react';
import { AnswerBars } from '../../charts/AnswerBars.tsx';
import { MAX_SECONDS, MIN_SECONDS } from '../../classroom/protocol.ts';
import { type RoomQuestions, roomQuestions } from '../../classroom/questions.ts';
import { encodeLink } from '../../store/link.ts';
import { keepTeacher, keptTeacher } from '../../store/roomStore.ts';
import { linkOf } from '../../store/stepStore.ts';
import { browserStorage } from '../../store/storage.ts';
import { PROGRAM_ID } from '../../scenarios/program.ts';
import { paramsText } from '../../scenarios/params.ts';
import { stepStore } from '../step/useStep.ts';
import { createRoom, health } from './api.ts';
import { QrCode } from './QrCode.tsx';
import { roomStore, useRoom } from './roomStores.ts';
import { useCountdown } from './useCountdown.ts';
import './room.css';

type Phase =
  | { readonly kind: 'checking' }
  | { readonly kind: 'no-server'; readonly why: string }
  | { readonly kind: 'failed'; readonly why: string }
  /** `resumed`: a class this browser ran before a reload (its code is not shown large again). */
  | { readonly kind: 'room'; readonly resumed: boolean };

/** Names that mean "this computer": a phone reading them would look for itself. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Where a student joins this class: the page's own address, #/join/CODE. */
export function joinUrl(code: string): string {
  return `${location.origin}${location.pathname}#/join/${code}`;
}

/** Starts a class (or resumes the one this browser runs), then shows it. */
export function TeacherRoom({ onClose }: { onClose: () => void }) {
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' });
  useEffect(() => {
    // Closed before the server answered: the answer is dropped.
    let gone = false;
    const closed = () => gone;
    void (async () => {
      const h = await health();
      if (closed()) return;
      if (!h.ok) {
        setPhase({ kind: 'no-server', why: h.why });
        return;
      }
      const storage = browserStorage();
      const kept = keptTeacher(storage, Date.now());
      if (kept) {
        roomStore.getState().joined({ role: 'teacher', code: kept.code, secret: kept.secret });
        setPhase({ kind: 'room', resumed: true });
        return;
      }
      const title = stepStore.getState().session.scenario.title.slice(0, 120);
      const made = await createRoom(title);
      if (closed()) return;
      if (!made.ok) {
        setPhase({ kind: 'failed', why: made.why });
        return;
      }
      keepTeacher(storage, made.value);
      roomStore
        .getState()
        .joined({ role: 'teacher', code: made.value.code, secret: made.value.secret });
      setPhase({ kind: 'room', resumed: false });
    })();
    return () => {
      gone = true;
    };
  }, []);

  if (phase.kind === 'room') return <ClassDock onClose={onClose} resumed={phase.resumed} />;
  return (
    <aside className="class-dock" aria-label="Class">
      <div className="class-head">
        <h3>Start a class</h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {phase.kind === 'checking' && <p role="status">Looking for a classroom server…</p>}
      {phase.kind === 'no-server' && (
        <div role="alert">
          <p>
            This page has no classroom server ({phase.why}): a class needs one, to carry the stage
            to students&rsquo; phones and their answers back.
          </p>
          <p>
            Run <code>npm run classroom</code> in a clone of the lab and open the address it prints
            (&ldquo;The room, live&rdquo; in the lab&rsquo;s <code>docs/modes.md</code>
            says more). Everything else here works without it.
          </p>
        </div>
      )}
      {phase.kind === 'failed' && <p role="alert">The class could not be started: {phase.why}.</p>}
    </aside>
  );
}

/** The class, running: code, QR, presence, questions, submissions. */
function ClassDock({ onClose, resumed }: { onClose: () => void; resumed: boolean }) {
  const who = useRoom((s) => s.who);
  const status = useRoom((s) => s.status);
  const present = useRoom((s) => s.present);
  const announcement = useRoom((s) => s.announcement);
  const error = useRoom((s) => s.error);
  // A new class opens on its code, large; a resumed one on the stage.
  const [large, setLarge] = useState(!resumed);
  usePushMoments();
  useStepToReveal();
  const code = who?.code ?? '';
  const ended = status === 'ended' || status === 'refused';
  const end = () => {
    roomStore.getState().endRequested();
    keepTeacher(browserStorage(), null);
  };
  const close = () => {
    roomStore.getState().left();
    if (ended) keepTeacher(browserStorage(), null);
    onClose();
  };
  return (
    <aside className="class-dock" aria-label="Class">
      <div className="class-head">
        <h3>
          Class <span className="class-code">{code}</span>
        </h3>
        {ended && (
          <button type="button" onClick={close}>
            Close
          </button>
        )}
      </div>
      <p className="class-status">
        {status === 'open'
          ? `${String(present)} ${present === 1 ? 'student' : 'students'} present`
          : status === 'reconnecting' || status === 'connecting'
            ? 'Reconnecting…'
            : status === 'ended'
              ? 'The class has ended.'
              : (error ?? 'Refused by the server.')}
      </p>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {!ended && (
        <>
          <div className="class-join">
            <QrCode text={joinUrl(code)} label={`QR code to join class ${code}`} />
            <p>
              Join at <span className="join-url">{joinUrl(code)}</span>
            </p>
          </div>
          {LOOPBACK.has(location.hostname) && (
            <p className="class-warning" role="note">
              Phones cannot reach {location.hostname}: open this page at this computer&rsquo;s
              address on the room&rsquo;s network, so the QR code carries it.
            </p>
          )}
          <button
            type="button"
            onClick={() => {
              setLarge(true);
            }}
          >
            Show the code large
          </button>
          <Questions />
          <Submissions />
          <button type="button" className="class-end" onClick={end}>
            End the class
          </button>
        </>
      )}
      {large && !ended && (
        <JoinCard
          code={code}
          onClose={() => {
            setLarge(false);
          }}
        />
      )}
    </aside>
  );
}

/** The code and QR code, as large as the screen allows, for the back of a hall. */
function JoinCard({ code, onClose }: { code: string; onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  const present = useRoom((s) => s.present);
  useEffect(() => {
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);
  return (
    <div className="join-card" role="dialog" aria-modal="true" aria-label={`Join class ${code}`}>
      <QrCode text={joinUrl(code)} label={`QR code to join class ${code}`} />
      <div className="join-card-text">
        <p>Join the class</p>
        <p className="join-card-code" aria-label={`Code ${code.split('').join(' ')}`}>
          {code}
        </p>
        <p className="join-url">{joinUrl(code)}</p>
        <p>
          {String(present)} {present === 1 ? 'student' : 'students'} present
        </p>
        <button ref={close} type="button" onClick={onClose}>
          Start
        </button>
      </div>
    </div>
  );
}

/** Every change of the Step link goes to the room (the room keeps it once). */
function usePushMoments() {
  useEffect(() => {
    const push = () => {
      const { session, challenge } = stepStore.getState();
      roomStore.getState().momentChanged(linkOf(session, challenge));
    };
    push();
    return stepStore.subscribe((s, before) => {
      if (s.session !== before.session || s.challenge !== before.challenge) push();
    });
  }, []);
}

/** A reveal as it happens steps the stage to the answer's moment (students follow it). */
function useStepToReveal() {
  const revealed = useRoom((s) => s.revealed);
  const caughtUp = useRoom((s) => s.caughtUp);
  const done = useRef(0);
  useEffect(() => {
    if (!revealed?.revealHash || revealed.n <= caughtUp || done.current === revealed.n) return;
    done.current = revealed.n;
    stepStore.getState().linkOpened(revealed.revealHash);
  }, [revealed, caughtUp]);
}

/** The hash the stage opens at a question's reveal. */
function revealHash(schedule: string, cursor: number): string {
  const { session, challenge } = stepStore.getState();
  const sc = session.scenario;
  const program = sc.id === PROGRAM_ID ? sc.text?.(session.params) : undefined;
  return encodeLink({
    scenario: sc.id,
    params: paramsText(session.params, sc),
    schedule,
    cursor,
    ...(challenge ? { challenge } : {}),
    ...(program === undefined ? {} : { program }),
  });
}

/** Ask the room; while a question is open, its live chart; after the reveal, the answer's. */
function Questions() {
  const question = useRoom((s) => s.question);
  const tally = useRoom((s) => s.tally);
  const revealed = useRoom((s) => s.revealed);
  const present = useRoom((s) => s.present);
  const left = useCountdown(question?.closesAt ?? null);
  const [asking, setAsking] = useState(false);
  if (question) {
    const counts = tally?.question === question.n ? tally.counts : question.choices.map(() => 0);
    const answered = tally?.question === question.n ? tally.answered : 0;
    return (
      <section className="class-question" aria-label="The open question">
        <h4>{question.prompt}</h4>
        <p className="countdown">
          {left > 0 ? `${String(left)} s left` : 'Time is up'} · {String(answered)} of{' '}
          {String(present)} answered
        </p>
        <AnswerBars
          prompt={question.prompt}
          choices={question.choices}
          counts={counts}
          answer={null}
        />
        <button
          type="button"
          className="primary"
          onClick={() => {
            roomStore.getState().revealRequested();
          }}
        >
          Reveal
        </button>
      </section>
    );
  }
  return (
    <>
      {revealed && (
        <section className="class-question" aria-label="The last answer">
          <h4>{revealed.prompt}</h4>
          <AnswerBars
            prompt={revealed.prompt}
            choices={revealed.choices}
            counts={revealed.counts}
            answer={revealed.answer}
          />
        </section>
      )}
      {asking ? (
        <AskForm
          onDone={() => {
            setAsking(false);
          }}
        />
      ) : (
        <button
          type="button"
          className="primary"
          onClick={() => {
            setAsking(true);
          }}
        >
          Ask the room
        </button>
      )}
    </>
  );
}

/** Pick one of the engine's questions for the stage's moment, and how long to answer. */
function AskForm({ onDone }: { onDone: () => void }) {
  const [found, setFound] = useState<RoomQuestions | null>(null);
  const [picked, setPicked] = useState(0);
  const [seconds, setSeconds] = useState('30');
  // The engine explores once the form shows "Working it out…" (a click's worth, capped).
  useEffect(() => {
    const t = setTimeout(() => {
      const { session } = stepStore.getState();
      setFound(roomQuestions(session));
    }, 0);
    return () => {
      clearTimeout(t);
    };
  }, []);
  const n = Number(seconds);
  const secondsOk = Number.isInteger(n) && n >= MIN_SECONDS && n <= MAX_SECONDS;
  const q = found?.questions[picked];
  const refused = useMemo(() => found?.refused ?? [], [found]);
  return (
    <form
      className="ask-form"
      aria-label="Ask the room"
      onSubmit={(e) => {
        e.preventDefault();
        if (!q || !secondsOk) return;
        roomStore.getState().asked({
          prompt: q.prompt,
          choices: [...q.choices],
          seconds: n,
          answer: q.answer,
          revealHash: revealHash(q.reveal.schedule, q.reveal.cursor),
        });
        onDone();
      }}
    >
      {!found && <p role="status">Working it out…</p>}
      {found && found.questions.length === 0 && (
        <p role="alert">No question can be asked at this moment.</p>
      )}
      {found && found.questions.length > 0 && (
        <>
          <label>
            Question
            <select
              value={picked}
              onChange={(e) => {
                setPicked(Number(e.target.value));
              }}
            >
              {found.questions.map((x, i) => (
                <option key={x.id} value={i}>
                  {x.prompt}
                </option>
              ))}
            </select>
          </label>
          {q && (
            <ul className="ask-choices" aria-label="Its choices">
              {q.choices.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          )}
          <label>
            Seconds to answer
            <input
              type="number"
              min={MIN_SECONDS}
              max={MAX_SECONDS}
              value={seconds}
              aria-invalid={!secondsOk}
              onChange={(e) => {
                setSeconds(e.target.value);
              }}
            />
          </label>
          {!secondsOk && (
            <p role="alert">
              Between {MIN_SECONDS} and {MAX_SECONDS} seconds.
            </p>
          )}
        </>
      )}
      {refused.length > 0 && (
        <details>
          <summary>Not asked here ({refused.length})</summary>
          <ul>
            {refused.map((r) => (
              <li key={r.kind}>
                {r.kind}: {r.why}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="ask-buttons">
        <button type="submit" className="primary" disabled={!q || !secondsOk}>
          Ask
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Students' challenge attempts, judged on the server, newest first. */
function Submissions() {
  const submissions = useRoom((s) => s.submissions);
  if (submissions.length === 0) return null;
  return (
    <table className="class-submissions">
      <caption>Challenge attempts</caption>
      <thead>
        <tr>
          <th scope="col">Student</th>
          <th scope="col">Schedule</th>
          <th scope="col">Verdict</th>
        </tr>
      </thead>
      <tbody>
        {[...submissions].reverse().map((s) => (
          <tr key={`${s.nickname}-${String(s.at)}`}>
            <td>{s.nickname}</td>
            <td>
              <code>{s.schedule || '(none)'}</code>
            </td>
            <td>
              {s.verdict.kind === 'reached' ? '✓ ' : s.verdict.kind === 'missed' ? '✗ ' : ''}
              {s.verdict.summary}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
