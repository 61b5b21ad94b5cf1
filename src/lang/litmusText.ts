// Whether a text is a herd7 litmus file: such a file answers under the kernel's memory model
// (memory lkmm) unless the user asks for another, in `lab check` and in the editor alike.
//
// The lab's own programs may start `C name` too (the editor's first example does), so the name
// alone does not tell: a herd7 file goes on, past its optional header lines (a quoted line,
// `Cycle=…`, `Relax=…` and the like, which herd7's generators write), to its init block `{`.

/** Whether a text is a herd7 litmus file: `C name`, header lines, then the init block `{`. */
export function isLitmusText(source: string): boolean {
  const text = source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|\(\*[\s\S]*?\*\)/g, '').trimStart();
  const head = /^C[ \t]+\S[^\n]*\n/.exec(text);
  if (!head) return false;
  for (const line of text.slice(head[0].length).split('\n')) {
    const t = line.trim();
    // herd7 skips whatever else comes before the init block; a second `C name` line is seen.
    if (t === '' || t.startsWith('"') || /^[A-Za-z]+=/.test(t) || /^C\s+\S/.test(t)) continue;
    return t.startsWith('{');
  }
  return false;
}

/** The memory model a program answers under unless the user names one: lkmm for a herd7 file. */
export function defaultMemory(source: string): 'lkmm' | 'sc' {
  return isLitmusText(source) ? 'lkmm' : 'sc';
}
