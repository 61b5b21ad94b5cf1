// A student's page (#/join, and #/join/CODE from the QR code): a code and a nickname, no
// account; then the teacher's stage, synced and read-only while following, "Go on my own" to
// step freely from the teacher's moment and "Back to the class" to rejoin it, the open question
// with big touch targets, the reveal with whether they were right, and a challenge's schedule
// sent to be judged. A reload of the tab joins again as the same student (sessionStorage keeps
// the code, localStorage the nickname and the token).

import { useEffect, useState } from 'react';
import { AnswerBars } from '../../charts/AnswerBars.tsx';
import { CODE_ALPHABET, CODE_LENGTH } from '../../classroom/protocol.ts';
import { formatSchedule } from '../../machine/schedule.ts';
import { keepNickname, keptNickname, studentToken } from '../../store/roomStore.ts';
import { browserStorage } from '../../store/storage.ts';
import { StepScreen } from '../step/StepScreen.tsx';
import { stepStore, useStep } from '../step/useStep.ts';
import { roomInfo } from './api.ts';
import { roomStore, useRoom } from './roomStores.ts';
import { useCountdown } from './useCountdown.ts';
import './room.css';

const JOINED_KEY = 'percpu-lab:class-joined';

/** The code a #/join/CODE link carries, upper-cased; '' for none. */
export function linkedCode(hash: string): string {
  return /^#\/join\/([A-Za-z0-9]+)/.exec(hash)?.[1]?.toUpperCase() ?? '';
}

function codeProblem(code: string): string | null {
  if (code.length !== CODE_LENGTH) return `A class code has ${String(CODE_LENGTH)} characters.`;
  if (code.split('').some((c) => !CODE_ALPHABET.includes(c)))
    return 'A class code has letters and digits only (no 0, O, 1, I or L).';
  return null;
}

function joinedCode(): string | null {
  try {
    return sessionStorage.getItem(JOINED_KEY);
  } catch {
    return null;
  }
}

function random(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

async function join(code: string, nickname: string): Promise<string | null> {
  const info = await roomInfo(code);
  if (!info.ok)
    return info.why === 'not found'
      ? `There is no class with the code ${code} (it may have ended).`
      : `The class could not be reached: ${info.why}.`;
  if (info.value.ended) return `The class ${code} has ended.`;
  const storage = browserStorage();
  keepNickname(storage, nickname);
  try {
    sessionStorage.setItem(JOINED_KEY, code);
  } catch {
    // A reload will ask again.
  }
  // The address names the class, so that a reload of this tab joins it again.
  if (location.hash !== `#/join/${code}`) history.replaceState(null, '', `#/join/${code}`);
  roomStore
    .getState()
    .joined({ role: 'student', code, nickname, token: studentToken(storage, random) });
  return null;
}

export function JoinScreen({ hash }: { hash: string }) {
  const who = useRoom((s) => s.who);
  if (who?.role === 'student') return <StudentRoom />;
  return <JoinForm code={linkedCode(hash)} />;
}

function JoinForm({ code: linked }: { code: string }) {
  const [code, setCode] = useState(linked);
  const [nickname, setNickname] = useState(() => keptNickname(browserStorage()));
  const [problem, setProblem] = useState<string | null>(null);
  // This tab joined this class before the reload: join again, as the same student.
  const [again] = useState(() => linked !== '' && joinedCode() === linked && nickname !== '');
  const [busy, setBusy] = useState(again);
  useEffect(() => {
    if (!again) return;
    void join(linked, keptNickname(browserStorage())).then((why) => {
      setProblem(why);
      setBusy(false);
    });
  }, [again, linked]);
  const submit = () => {
    const c = code.trim().toUpperCase();
    const n = nickname.trim();
    const bad = codeProblem(c) ?? (n === '' ? 'Choose a nickname.' : null);
    setProblem(bad);
    if (bad) return;
    setBusy(true);
    void join(c, n).then((why) => {
      setProblem(why);
      setBusy(false);
    });
  };
  return (
    <section className="join-screen" aria-labelledby="join-title">
      <h2 id="join-title">Join a class</h2>
      <p>Your teacher&rsquo;s stage comes to this page. No account: a nickname is enough.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        noValidate
      >
        <label>
          Class code
          <input
            value={code}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={CODE_LENGTH}
            onChange={(e) => {
              setCode(e.target.value.toUpperCase());
            }}
          />
        </label>
        <label>
          Nickname
          <input
            value={nickname}
            maxLength={24}
            autoComplete="nickname"
            onChange={(e) => {
              setNickname(e.target.value);
            }}
          />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Joining…' : 'Join'}
        </button>
        {problem && <p role="alert">{problem}</p>}
      </form>
    </section>
  );
}

/** The class, on a student's page. */
function StudentRoom() {
  const who = useRoom((s) => s.who);
  const status = useRoom((s) => s.status);
  const title = useRoom((s) => s.title);
  const moment = useRoom((s) => s.moment);
  const announcement = useRoom((s) => s.announcement);
  const error = useRoom((s) => s.error);
  const [own, setOwn] = useState(false);
  const ended = status === 'ended' || status === 'refused';
  const following = !own && !ended;
  // Following: every moment of the room opens on this stage.
  useEffect(() => {
    if (following && moment) stepStore.getState().linkOpened(moment);
  }, [following, moment]);
  const state =
    status === 'reconnecting' || status === 'connecting'
      ? 'Reconnecting…'
      : status === 'ended'
        ? 'The class has ended: the stage is yours.'
        : status === 'refused'
          ? (error ?? 'The server refused this page.')
          : following
            ? 'Following the teacher'
            : 'On your own';
  return (
    <div className="student-room">
      <section className="class-bar" aria-label="Class">
        <p>
          <strong>{title || 'Class'}</strong> · {who?.code} ·{' '}
          {who?.role === 'student' && who.nickname} · <span className="class-state">{state}</span>
        </p>
        {!ended &&
          (own ? (
            <button
              type="button"
              className="primary"
              onClick={() => {
                setOwn(false);
              }}
            >
              Back to the class
            </button>
          ) : (
            <button
              type="button"
              onClick={() => {
                setOwn(true);
              }}
            >
              Go on my own
            </button>
          ))}
        <p className="sr-only" role="status" aria-live="polite">
          {announcement}
        </p>
      </section>
      <AnswerPanel />
      <Revealed />
      <SubmitChallenge />
      <StepScreen linked={false} readOnly={following} />
    </div>
  );
}

/** The open question: big buttons, the countdown, "Answer sent". */
function AnswerPanel() {
  const question = useRoom((s) => s.question);
  const answered = useRoom((s) => s.answered);
  const left = useCountdown(question?.closesAt ?? null);
  if (!question) return null;
  const mine = answered?.question === question.n ? answered.choice : null;
  return (
    <section className="answer-panel" aria-labelledby="answer-prompt">
      <h3 id="answer-prompt">{question.prompt}</h3>
      <p className="countdown">
        {left > 0 ? `${String(left)} s left` : 'Time is up'}
        {mine !== null && ' · Answer sent'}
      </p>
      <div className="answer-choices" role="group" aria-label="Choices">
        {question.choices.map((c, i) => (
          <button
            key={c}
            type="button"
            aria-pressed={mine === i}
            disabled={left === 0}
            onClick={() => {
              roomStore.getState().answerChosen(i);
            }}
          >
            {c}
          </button>
        ))}
      </div>
    </section>
  );
}

/** After the reveal: the room's chart and whether this student was right. */
function Revealed() {
  const revealed = useRoom((s) => s.revealed);
  const answered = useRoom((s) => s.answered);
  const [shown, setShown] = useState<number | null>(null);
  if (!revealed || shown === revealed.question) return null;
  const mine = answered?.question === revealed.question ? answered.choice : null;
  const right = revealed.answer === null ? null : revealed.choices[revealed.answer];
  const verdict =
    revealed.answer === null
      ? null
      : mine === null
        ? `You did not answer. The answer: ${right ?? ''}.`
        : mine === revealed.answer
          ? `You were right: ${right ?? ''}.`
          : `Not this time: the answer is ${right ?? ''}.`;
  return (
    <section className="answer-panel" aria-label="The answer">
      <h3>{revealed.prompt}</h3>
      {verdict && <p className="answer-verdict">{verdict}</p>}
      <AnswerBars
        prompt={revealed.prompt}
        choices={revealed.choices}
        counts={revealed.counts}
        answer={revealed.answer}
      />
      <button
        type="button"
        onClick={() => {
          setShown(revealed.question);
        }}
      >
        Close
      </button>
    </section>
  );
}

/** When the stage shows a challenge: send this run's schedule, and the server's verdict. */
function SubmitChallenge() {
  const challenge = useStep((s) => s.challenge);
  const session = useStep((s) => s.session);
  const judged = useRoom((s) => s.judged);
  if (!challenge) return null;
  const schedule = formatSchedule(session.events.slice(0, session.cursor));
  return (
    <section className="submit-challenge" aria-label="Challenge">
      <button
        type="button"
        onClick={() => {
          roomStore.getState().submitted(challenge, schedule);
        }}
      >
        Send my schedule to the teacher
      </button>
      {judged?.challenge === challenge && (
        <p role="status">
          {judged.verdict.kind === 'reached' ? '✓ ' : judged.verdict.kind === 'missed' ? '✗ ' : ''}
          {judged.verdict.summary}
        </p>
      )}
    </section>
  );
}
