import { describe, expect, it } from 'vitest';
import { examples, FIRST_PROGRAM } from '../scenarios/examples.ts';
import { isLitmusText } from './litmusText.ts';

describe('which texts are herd7 litmus files (answered under lkmm by default)', () => {
  it('herd7 files: the name, header lines, then the init block', () => {
    expect(isLitmusText('C SB\n{\n}\nP0(int *x) { }\nexists (0:r0=0)\n')).toBe(true);
    expect(isLitmusText('C MP\n"PodWW Rfe PodRR Fre"\nCycle=Rfe PodRR\n{ x=0; }\n')).toBe(true);
    expect(isLitmusText('(* a comment *)\nC X+Y\n\n{\n}\n')).toBe(true);
    // The editor's two herd7 examples.
    for (const id of ['SB', 'MP'])
      expect(isLitmusText(examples.find((e) => e.id === id)?.text() ?? ''), id).toBe(true);
  });

  it("the lab's own programs, even when they start `C name`, are not", () => {
    // The editor's first example starts `C my-counter`, then declarations: it runs under sc.
    expect(isLitmusText(FIRST_PROGRAM)).toBe(false);
    expect(isLitmusText('C my-counter\n/* note */\nlong x;\nP0() { x++; }\n')).toBe(false);
  });
});
