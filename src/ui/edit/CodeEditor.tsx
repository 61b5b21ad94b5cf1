// The program editor: CodeMirror 6, loaded with the editor screen only (its own chunk). The
// colours come from the compiler's lexer (highlight.ts), the underlines from the compiler's
// errors; nothing here knows the language. Tab moves focus out, as a form field does: the
// editor never traps the keyboard.
//
// The editor lives in a shadow root: CodeMirror's styles then go into constructed style sheets
// (adoptedStyleSheets), which the page's Content-Security-Policy (style-src 'self', no inline
// <style>) allows, where a <style> element in the document would be refused. Its looks are
// therefore a CodeMirror theme here, not rules in app.css.

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState, type Extension, RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  ViewPlugin,
  type ViewUpdate,
} from '@codemirror/view';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { highlights } from '../../lang/highlight.ts';
import type { Problem } from '../../store/editStore.ts';

export interface CodeEditorHandle {
  /** Puts the cursor at offset `at`, scrolled into view, and focuses the editor. */
  jumpTo(at: number): void;
}

interface Props {
  /** The text to show when `version` changes (the editor owns its document in between). */
  readonly value: string;
  /** Changes when a text comes from outside (an example, a link), never as the user types. */
  readonly version: number;
  readonly onChange: (text: string) => void;
  readonly problems: readonly Problem[];
  /** The accessible name of the text area. */
  readonly label: string;
}

const marks = new Map<string, Decoration>();
function mark(cls: string): Decoration {
  let m = marks.get(cls);
  if (!m) {
    m = Decoration.mark({ class: `tok-${cls}` });
    marks.set(cls, m);
  }
  return m;
}

/** Token colours: each at least 4.5:1 on white, never the only signal (the compiler says it). */
const theme = EditorView.theme({
  // As tall as the program: the page scrolls, not a region inside it, so nothing but the text
  // box takes the keyboard (a scrolling region would need a tab stop of its own).
  '&': { border: '2px solid #c9ced6', borderRadius: '4px', fontSize: '0.8rem' },
  '&.cm-focused': { outline: '3px solid #0b3d91', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)' },
  '.tok-comment': { color: '#4d5560', fontStyle: 'italic' },
  '.tok-directive, .tok-header': { color: '#7a2e8e' },
  '.tok-keyword': { color: '#0b3d91', fontWeight: '600' },
  '.tok-type': { color: '#005f5f' },
  '.tok-primitive': { color: '#8a3b00' },
  '.tok-clause, .tok-thread': { color: '#1e6b34', fontWeight: '600' },
  '.tok-number, .tok-string, .tok-register': { color: '#a0153e' },
  '.tok-invalid': { textDecoration: 'wavy underline #b00020' },
});

function decorate(view: EditorView): DecorationSet {
  const b = new RangeSetBuilder<Decoration>();
  for (const h of highlights(view.state.doc.toString())) b.add(h.from, h.to, mark(h.cls));
  return b.finish();
}

/** Colours the whole text from the lexer at each change (a program is a few hundred lines). */
const highlighting = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view);
    }
    update(u: ViewUpdate) {
      if (u.docChanged) this.decorations = decorate(u.view);
    }
  },
  { decorations: (v) => v.decorations },
);

function diagnostics(problems: readonly Problem[], length: number): Diagnostic[] {
  return problems.map((p) => {
    const from = Math.min(p.from, length);
    return {
      from,
      to: Math.min(Math.max(p.to, from), length),
      severity: 'error',
      message: p.hint ? `${p.message} ${p.hint}` : p.message,
    };
  });
}

export const CodeEditor = forwardRef<CodeEditorHandle, Props>(function CodeEditor(
  { value, version, onChange, problems, label },
  ref,
) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const extensions: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      highlightActiveLine(),
      keymap.of([...defaultKeymap, ...historyKeymap]),
      lintGutter(),
      highlighting,
      theme,
      EditorState.tabSize.of(8),
      EditorView.contentAttributes.of({ 'aria-label': label, spellcheck: 'false' }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) changed.current(u.state.doc.toString());
      }),
    ];
    const el = host.current as HTMLDivElement;
    const shadow = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    const mount = document.createElement('div');
    shadow.replaceChildren(mount);
    const v = new EditorView({
      parent: mount,
      root: shadow,
      state: EditorState.create({ doc: value, extensions }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the view is made once; later values arrive through the effect below
  }, []);

  // A new text from outside (an example, a link): replace the document, keeping undo. Only
  // then: a value that is the store catching up with keys pressed earlier is older than the
  // document, and putting it back would undo what was typed since.
  const shown = useRef(version);
  useEffect(() => {
    const v = view.current;
    if (!v || shown.current === version) return;
    shown.current = version;
    if (v.state.doc.toString() === value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value, version]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    v.dispatch(setDiagnostics(v.state, diagnostics(problems, v.state.doc.length)));
  }, [problems]);

  useImperativeHandle(ref, () => ({
    jumpTo(at: number) {
      const v = view.current;
      if (!v) return;
      const pos = Math.min(at, v.state.doc.length);
      v.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
      v.focus();
    },
  }));

  return <div ref={host} className="code-editor" />;
});

export default CodeEditor;
