// Types as the compiler sees them: integers of 32 or 64 bits, the kernel's atomic and lock types,
// structs, pointers and per-CPU pointers. Word sizes follow BITS_PER_LONG (64 unless a program
// says 32), so a `long` is two words on a 64-bit machine and one on a 32-bit one, while an `s64`
// is always two (and tears on a 32-bit machine).

import type { TypeRef } from './ast.ts';
import { LangFault, type Span } from './source.ts';

export type Ty =
  | { readonly k: 'int'; readonly bits: 32 | 64; readonly unsigned: boolean; readonly name: string }
  | { readonly k: 'atomic'; readonly bits: 32 | 64; readonly name: string }
  | { readonly k: 'lock'; readonly name: string }
  /** `struct srcu_struct`: an SRCU domain (its read-side sections and grace periods). */
  | { readonly k: 'srcu' }
  | { readonly k: 'struct'; readonly name: string }
  | { readonly k: 'ptr'; readonly to: Ty }
  /** `T __percpu *`: points to a per-CPU variable of T. */
  | { readonly k: 'percpu'; readonly to: Ty }
  | { readonly k: 'void' };

export const INT: Ty = { k: 'int', bits: 32, unsigned: false, name: 'int' };
export const S64: Ty = { k: 'int', bits: 64, unsigned: false, name: 's64' };
export const BOOL: Ty = { k: 'int', bits: 32, unsigned: false, name: 'bool' };

/** The type a TypeRef names, on a machine whose `long` has `longBits`. */
export function typeOf(t: TypeRef, longBits: 32 | 64, structs: ReadonlySet<string>): Ty {
  let base = baseType(t.base, longBits, t.span, structs);
  if (t.percpu && t.pointers === 0)
    throw new LangFault(t.span, '`__percpu` marks a pointer: write `T __percpu *name`.');
  for (let i = 0; i < t.pointers; i++) {
    base = t.percpu && i === 0 ? { k: 'percpu', to: base } : { k: 'ptr', to: base };
  }
  return base;
}

function baseType(base: string, longBits: 32 | 64, span: Span, structs: ReadonlySet<string>): Ty {
  switch (base) {
    case 'int':
    case 's32':
      return { k: 'int', bits: 32, unsigned: false, name: base };
    case 'bool':
      return BOOL;
    case 'unsigned int':
    case 'u32':
    case 'unsigned':
      return { k: 'int', bits: 32, unsigned: true, name: base };
    case 'long':
      return { k: 'int', bits: longBits, unsigned: false, name: 'long' };
    case 'unsigned long':
    case 'size_t':
      return { k: 'int', bits: longBits, unsigned: true, name: base };
    case 'intptr_t':
    case 'uintptr_t':
      // An integer that holds a pointer: one word, as the machine's pointers are (word
      // addresses), so a pointer stored in it and read back through a cast is the same word.
      return { k: 'int', bits: 32, unsigned: false, name: base };
    case 's64':
      return S64;
    case 'u64':
      return { k: 'int', bits: 64, unsigned: true, name: 'u64' };
    case 'atomic_t':
      return { k: 'atomic', bits: 32, name: base };
    case 'atomic64_t':
      return { k: 'atomic', bits: 64, name: base };
    case 'atomic_long_t':
      return { k: 'atomic', bits: longBits, name: base };
    case 'spinlock_t':
    case 'raw_spinlock_t':
      return { k: 'lock', name: base };
    case 'void':
      return { k: 'void' };
    case 'char':
    case 'short':
    case 'unsigned char':
    case 'unsigned short':
    case 's8':
    case 'u8':
    case 's16':
    case 'u16':
      throw new LangFault(
        span,
        `\`${base}\` is narrower than the machine’s 32-bit words.`,
        'Use int (or s32), long, or s64.',
      );
    case 'struct srcu_struct':
      return { k: 'srcu' };
    default:
      if (base.startsWith('struct ')) {
        const name = base.slice(7);
        if (!structs.has(name))
          throw new LangFault(
            span,
            `\`${base}\` is not defined.`,
            `Define it first: struct ${name} { … };`,
          );
        return { k: 'struct', name };
      }
      throw new LangFault(span, `\`${base}\` is not a type the lab knows.`);
  }
}

/** Words a value of this type takes in memory (pointers are one word: word addresses). */
export function wordsOf(t: Ty): 1 | 2 {
  return (t.k === 'int' || t.k === 'atomic') && t.bits === 64 ? 2 : 1;
}

/** The layout's cell type for a scalar of type t. */
export function cellType(t: Ty): 's32' | 's64' | 'lock' {
  if (t.k === 'lock') return 'lock';
  return wordsOf(t) === 2 ? 's64' : 's32';
}

export function isScalar(t: Ty): boolean {
  return t.k === 'int' || t.k === 'ptr' || t.k === 'percpu';
}

/** How a type is written in messages. */
export function typeName(t: Ty): string {
  switch (t.k) {
    case 'int':
    case 'atomic':
    case 'lock':
      return t.name;
    case 'struct':
      return `struct ${t.name}`;
    case 'srcu':
      return 'struct srcu_struct';
    case 'ptr':
      return `${typeName(t.to)} *`;
    case 'percpu':
      return `${typeName(t.to)} __percpu *`;
    case 'void':
      return 'void';
  }
}

export function sameType(a: Ty, b: Ty): boolean {
  return typeName(a) === typeName(b);
}
