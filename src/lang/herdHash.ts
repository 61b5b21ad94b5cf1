// herd7's `Hash=` line for a litmus file: an MD5 over the test's initial state, its threads'
// code and the locations it shows, as herdtools7 computes it (lib/testHash.ml, CTestHash.ml), so
// a lab answer can be told apart from, or matched with, herd7's for the same test. The digest is
// textual in herd7: whitespace and comments inside a thread's body change it, the condition's
// values do not.

import { md5 } from '@noble/hashes/legacy.js';
import { utf8ToBytes, bytesToHex } from '@noble/hashes/utils.js';

const digest = (s: string): Uint8Array => md5(utf8ToBytes(s));

/** Registers (`1:r0`) before globals, registers by thread then name, globals by name. */
function locationOrder(a: string, b: string): number {
  const ra = /^(\d+):(.+)$/.exec(a);
  const rb = /^(\d+):(.+)$/.exec(b);
  if (ra && rb) {
    const d = Number(ra[1]) - Number(rb[1]);
    if (d !== 0) return d;
    return (ra[2] as string) < (rb[2] as string)
      ? -1
      : (ra[2] as string) > (rb[2] as string)
        ? 1
        : 0;
  }
  if (ra || rb) return ra ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const stripOcaml = (s: string) => s.replace(/\(\*[\s\S]*?\*\)/g, '');

/** The init block's items as herd7 prints them, sorted, joined. */
function initDigestText(init: string): string | null {
  const items: [string, string][] = [];
  const text = stripOcaml(init).replace(/\/\/[^\n]*/g, '');
  for (const raw of text.split(';')) {
    // `atomic_t x = ATOMIC_INIT(1)` is `atomic_t x=1` to herd7's init parser.
    const item = raw.trim().replace(/=\s*ATOMIC_INIT\s*\(\s*([^)]*?)\s*\)$/, '=$1');
    if (item === '') continue;
    const m = /^(?:(\w+(?:\s+\w+)*?)\s*(\*)?\s+)?(\*?)\s*([\w:]+)\s*(?:=\s*&?\s*(-?\w+))?$/.exec(
      item,
    );
    if (!m) return null;
    const [, ty, ptr1, ptr2, loc, val = '0'] = m;
    const pointer = Boolean(ptr1) || Boolean(ptr2);
    const printed =
      ty === undefined
        ? `${pointer ? '*' : ''}${loc as string}=${val}`
        : pointer
          ? `${ty} *${loc as string}=${val}`
          : `${ty} ${loc as string}=${val}`;
    items.push([loc as string, printed]);
  }
  items.sort(([a], [b]) => locationOrder(a, b));
  return items.map(([, p]) => p).join('; ');
}

/** A C type as herdtools7 parses it (CParser.mly's typ): qualifiers, a base, pointers. */
type CType =
  | { readonly k: 'base'; readonly name: string }
  | { readonly k: 'volatile' | 'const' | 'atomic' | 'ptr'; readonly of: CType };

/** herdtools7's CType.dump: `volatile int`, `int const`, `int*`, `volatile int*`. */
function dumpType(t: CType): string {
  switch (t.k) {
    case 'base':
      return t.name;
    case 'ptr':
      return `${dumpType(t.of)}*`;
    case 'volatile':
      return t.of.k === 'base' ? `volatile ${t.of.name}` : `${dumpType(t.of)} volatile`;
    case 'atomic':
      return t.of.k === 'base' ? `_Atomic ${t.of.name}` : `_Atomic (${dumpType(t.of)})`;
    case 'const':
      return `${dumpType(t.of)} const`;
  }
}

/**
 * A thread parameter's type as herd7 digests it: its last `*` stripped (herd7 passes the
 * location), the rest printed as CType.dump prints it, so `volatile int *x` is `volatile int`,
 * with a space herd7 keeps; null when it is not a pointer.
 */
function paramType(text: string): string | null {
  const toks = text.match(/\w+|\*/g) ?? [];
  if (toks[toks.length - 1] !== '*') return null;
  toks.pop();
  let t: CType | null = null;
  const before: ('volatile' | 'const' | 'atomic')[] = [];
  for (let i = 0; i < toks.length; i++) {
    const w = toks[i] as string;
    if (w === 'volatile' || w === 'const' || w === '_Atomic') {
      const k = w === '_Atomic' ? 'atomic' : w;
      if (t === null) before.push(k);
      else t = { k, of: t };
    } else if (w === '*') {
      if (t === null) return null;
      t = { k: 'ptr', of: t };
    } else {
      if (t !== null) return null;
      const name = w === 'struct' ? `struct ${toks[++i] ?? ''}` : w;
      t = { k: 'base', name };
      for (const k of before.reverse()) t = { k, of: t };
    }
  }
  return t === null ? null : dumpType(t);
}

/** The threads' code as herd7 digests it, or null when a thread is not in herd7's shape. */
function codeDigestText(program: string): string | null {
  const parts: string[] = [];
  const header = /P(\d+)\s*\(([^)]*)\)/g;
  let m: RegExpExecArray | null;
  let from = 0;
  header.lastIndex = 0;
  while ((m = header.exec(program)) !== null) {
    if (m.index < from) continue;
    let j = m.index + m[0].length;
    for (;;) {
      if (program.startsWith('//', j)) j = program.indexOf('\n', j);
      else if (program.startsWith('/*', j)) j = program.indexOf('*/', j) + 2;
      else if (/\s/.test(program[j] ?? '')) j++;
      else if (program[j] === '{') break;
      else return null;
      if (j < 0) return null;
    }
    let depth = 0;
    let k = j + 1;
    for (; k < program.length; k++) {
      const c = program[k];
      if (c === '{') depth++;
      else if (c === '}') {
        if (depth === 0) break;
        depth--;
      }
    }
    if (k >= program.length) return null;
    const params: string[] = [];
    for (const p of (m[2] as string)
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      const pm = /^(.*?)(\w+)$/.exec(p);
      const ty = pm ? paramType(pm[1] as string) : null;
      if (ty === null) return null;
      params.push(`${ty}* ${(pm as RegExpExecArray)[2] as string}`);
    }
    parts.push(`P${m[1] as string}(${params.join(', ')}) {\n${program.slice(j + 1, k)}\n}\n`);
    from = k + 1;
    header.lastIndex = k + 1;
  }
  if (parts.length === 0) return null;
  return ` ${parts.join(' | ')} ;\n`;
}

/** The locations the final section shows: its `locations` and what its condition compares. */
function shownLocations(final: string): string {
  const text = stripOcaml(final);
  const locs = new Set<string>();
  const listed = /locations\s*\[([^\]]*)\]/.exec(text);
  if (listed)
    for (const it of (listed[1] as string).split(';').map((x) => x.trim()))
      if (it !== '') locs.add(it);
  // The condition's locations, not the filter's: herd7 digests `locations` and the condition.
  const rest = text.replace(/locations\s*\[[^\]]*\]/, '');
  const q = /(~\s*exists|exists|forall)\b/.exec(rest);
  const cond = q ? rest.slice(q.index) : rest;
  // `loc=v`, and `loc=loc` (a register or `[x]` on the right: herd7's LL atom, both shown).
  for (const a of cond.matchAll(/(\[?[\w:]+\]?)\s*(!?=)\s*(\d+:\w+|\[\w+\])?/g)) {
    locs.add((a[1] as string).replace(/^\[|\]$/g, ''));
    if (a[3] !== undefined) locs.add(a[3].replace(/^\[|\]$/g, ''));
  }
  return [...locs].sort(locationOrder).join('; ');
}

/**
 * herd7's hash of a litmus file's text (a 32-digit hex string), or null when the text is not in
 * the shape herd7 hashes (the lab's own programs: structs, functions, clauses of their own).
 */
export function herdHash(source: string): string | null {
  const open = initOpen(source);
  if (open < 0) return null;
  const given = /^\s*Hash\s*=\s*([0-9a-fA-F]{32})\s*$/m.exec(source.slice(0, open));
  if (given) return (given[1] as string).toLowerCase();
  const close = source.indexOf('}', open);
  if (close < 0) return null;
  const init = initDigestText(source.slice(open + 1, close));
  const after = source.slice(close + 1);
  // The final section, if any (without one, herd7 checks `forall (true)` and shows nothing).
  const end = /^\s*(exists|~\s*exists|forall|locations|filter)/m.exec(after);
  const at = end ? end.index : after.length;
  if (init === null) return null;
  const code = codeDigestText(after.slice(0, at));
  if (code === null) return null;
  const all = new Uint8Array(48);
  all.set(digest(init), 0);
  all.set(digest(code), 16);
  all.set(digest(shownLocations(after.slice(at))), 32);
  return bytesToHex(md5(all));
}

/**
 * Where the init block's `{` is, as herd7's splitter finds it: after the `C name` line, past
 * OCaml comments (which may hold braces of their own) and information lines; −1 if none.
 */
function initOpen(source: string): number {
  let i = source.indexOf('\n');
  if (i < 0) return -1;
  while (i < source.length) {
    if (source.startsWith('(*', i)) {
      const end = source.indexOf('*)', i + 2);
      if (end < 0) return -1;
      i = end + 2;
    } else if (source[i] === '{') return i;
    else i++;
  }
  return -1;
}
