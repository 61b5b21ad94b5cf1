import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { PROGRAM_ID } from '../../scenarios/program.ts';
import { examples } from '../../scenarios/examples.ts';
import type { Problem } from '../../store/editStore.ts';
import { editLink } from '../../store/editLink.ts';
import { MAX_LINK_CHARS } from '../../store/linkLimits.ts';
import { Notice } from '../Notice.tsx';
import { PickAndApply } from '../PickAndApply.tsx';
import { MemoryModelField } from '../MemoryModelField.tsx';
import { defaultMemory } from '../../lang/litmusText.ts';
import { stepStore } from '../step/useStep.ts';
import type { CodeEditorHandle } from './CodeEditor.tsx';
import { editStore, useEdit } from './useEdit.ts';
import { count } from '../../machine/count.ts';
import { downloadText } from '../export/exportImage.ts';

// CodeMirror (about 100 KB compressed) loads with this screen only, after its first paint.
const CodeEditor = lazy(() => import('./CodeEditor.tsx'));

/** How long the compiler waits after a keystroke before it checks the text again. */
const CHECK_DELAY_MS = 250;

/** Problems, each a button that puts the cursor where it is. */
function Problems({
  problems,
  onJump,
}: {
  problems: readonly Problem[];
  onJump: (at: number) => void;
}) {
  return (
    <ul aria-label="Problems" className="problems">
      {problems.map((p) => (
        <li key={`${p.from}:${p.message}`}>
          <button
            type="button"
            onClick={() => {
              onJump(p.from);
            }}
          >
            {p.text}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * Your own programs: kernel-style C (or a herd7 litmus file) in an editor that underlines what
 * the compiler refuses, and the way into every mode with it. The text is a draft kept in this
 * browser; a link carries it to anyone.
 */
export function EditScreen({ hash }: { hash: string }) {
  // The link it was opened with (#/edit?src=…): its program, else the draft.
  useEffect(() => {
    editStore.getState().linkOpened(hash);
  }, [hash]);
  const text = useEdit((s) => s.text);
  const check = useEdit((s) => s.check);
  const notice = useEdit((s) => s.notice);
  const replaced = useEdit((s) => s.replaced);
  const editor = useRef<CodeEditorHandle>(null);
  // What the editor holds now; the store (and the compiler) catch up after a pause in typing.
  const [typed, setTyped] = useState(text);
  // A text from outside (an example, a link, a restored draft) replaces what is typed; the store
  // taking up an earlier keystroke's text does not (a key pressed since would be lost).
  const loads = useEdit((s) => s.loads);
  const [known, setKnown] = useState(loads);
  if (known !== loads) {
    setKnown(loads);
    setTyped(text);
  }
  const [said, setSaid] = useState<string | null>(null);
  // The memory model Step and Explore open it under: as `lab check`, a herd7 litmus file answers
  // under the kernel's own model (lkmm) and the lab's programs under sc, unless one is chosen.
  const [chosenMemory, setMemory] = useState<string | null>(null);
  const memory = chosenMemory ?? defaultMemory(typed);
  useEffect(() => {
    if (typed === editStore.getState().text) return;
    const t = setTimeout(() => {
      editStore.getState().textChanged(typed);
    }, CHECK_DELAY_MS);
    return () => {
      clearTimeout(t);
    };
  }, [typed]);
  const pending = typed !== text;
  const actions = editStore.getState();

  /** Opens the program in Step mode (with a panel open), or says why it cannot. */
  const open = (panel: string | null) => {
    actions.textChanged(typed);
    // A link names the model only where it is not the text's own (the one rule every front end
    // takes: src/scenarios/program.ts), so it opens as the editor shows it.
    const link = actions.programOpened(memory === defaultMemory(typed) ? {} : { memory });
    if (!link) return;
    stepStore.getState().panelRequested(panel);
    location.hash = link;
  };
  const copyLink = async () => {
    const hash = editLink(typed);
    if (hash.length > MAX_LINK_CHARS) {
      setSaid(
        `This program is too long to share as a link (${hash.length.toLocaleString('en')} characters, more than ${MAX_LINK_CHARS.toLocaleString('en')}): download it instead.`,
      );
      return;
    }
    const url = `${location.origin}${location.pathname}${hash}`;
    try {
      await navigator.clipboard.writeText(url);
      setSaid('Link copied: it opens this program in the editor.');
    } catch {
      setSaid(`Copy this link: ${url}`);
    }
  };
  const ok = check.ok && !pending;
  const why = pending ? 'Checking…' : check.ok ? null : 'Fix the problems first';
  const notLive = check.ok ? check.notLive : null;
  return (
    <div className="edit-screen">
      <div className="stage-bar">
        <h2>Your program</h2>
        <div className="row">
          <PickAndApply
            label="Start from"
            placeholder="Choose an example…"
            options={examples.map((e) => ({ value: e.id, label: e.title }))}
            button="Open example"
            hint="Replaces the text (undo with Ctrl+Z)"
            onApply={(id) => {
              actions.exampleChosen(id);
            }}
          />
        </div>
      </div>
      {notice && (
        <Notice
          action="Dismiss"
          onAction={() => {
            actions.noticeDismissed();
          }}
        >
          {notice}
        </Notice>
      )}
      {replaced !== null && (
        <Notice
          label="Draft replaced"
          action="Restore my draft"
          onAction={() => {
            actions.draftRestored();
          }}
        >
          The link opened its own program in place of your draft; your draft is kept until you
          restore it or leave this page.
        </Notice>
      )}
      <p className="hint">
        Kernel-style C: globals, <code>DEFINE_PER_CPU</code>, functions, and one thread per task (
        <code>P0()</code>, <code>P1() on cpu 0</code>) or handler (<code>IRQ0()</code>,{' '}
        <code>NMI0()</code>), then what to observe and judge. A herd7 litmus file runs as it is.
        Your text is kept in this browser as you type.
      </p>
      <Suspense fallback={<p role="status">Loading the editor…</p>}>
        <CodeEditor
          ref={editor}
          value={text}
          version={loads}
          onChange={setTyped}
          problems={check.ok ? [] : check.problems}
          label="Program text"
        />
      </Suspense>
      <p role="status" aria-label="Check" className="check">
        {pending
          ? 'Checking…'
          : check.ok
            ? `Compiles: ${check.summary}.`
            : `${count(check.problems.length, 'problem')}:`}
      </p>
      {!pending && !check.ok && (
        <Problems
          problems={check.problems}
          onJump={(at) => {
            editor.current?.jumpTo(at);
          }}
        />
      )}
      <div className="row" role="group" aria-label="Run the program">
        <MemoryModelField value={memory} onPick={setMemory} />
        <button
          type="button"
          aria-disabled={!ok}
          title={why ?? 'Open it in Step mode: you are the scheduler'}
          onClick={() => {
            if (ok) open(null);
          }}
        >
          Step through it
        </button>
        <button
          type="button"
          aria-disabled={!ok}
          title={why ?? 'Every interleaving within bounds, with the shortest witnesses'}
          onClick={() => {
            if (ok) open('Explore');
          }}
        >
          Explore it
        </button>
        <button
          type="button"
          aria-disabled={!ok || notLive !== null}
          title={why ?? notLive ?? 'Its threads on real cores, repeated, against the model'}
          onClick={() => {
            if (!ok || notLive !== null) return;
            actions.textChanged(typed);
            if (actions.programOpened()) location.hash = `#/live/${PROGRAM_ID}`;
          }}
        >
          Run it live
        </button>
        <button type="button" onClick={() => void copyLink()}>
          Copy link
        </button>
        <button
          type="button"
          onClick={() => {
            downloadText('program.c', typed, 'text/x-csrc');
          }}
        >
          Download .c
        </button>
        <button
          type="button"
          aria-disabled={!ok || !check.litmus.ok}
          title={
            why ??
            (check.ok && !check.litmus.ok
              ? `Not herd7's C: ${check.litmus.why}`
              : 'The program as a herd7 litmus file (.litmus), for herd7 and klitmus7')
          }
          onClick={() => {
            if (ok && check.litmus.ok)
              downloadText('program.litmus', check.litmus.text, 'text/plain');
          }}
        >
          Download for herd7
        </button>
      </div>
      {said && (
        <p role="status" aria-label="Link">
          {said}
        </p>
      )}
    </div>
  );
}
