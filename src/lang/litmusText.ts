// Whether a text is a herd7 litmus file: such a file answers under the kernel's memory model
// (memory lkmm) unless the user asks for another, in `lab check` and in the editor alike.

/** Whether a text is a herd7 litmus file: its first line (past comments) is `C name`. */
export function isLitmusText(source: string): boolean {
  const text = source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|\(\*[\s\S]*?\*\)/g, '').trimStart();
  return /^C[ \t]+\S/.test(text);
}
