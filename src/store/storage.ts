// The part of the Web Storage API the stores use (localStorage, or a fake in tests), and the
// browser's own, which may refuse every call: storage is blocked in some private modes and
// sandboxed frames, and a quota can be full.

import { messageOf } from '../machine/errors.ts';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Why a storage call failed, without a final full stop (the message adds its own). */
export function storageReason(e: unknown): string {
  return messageOf(e).replace(/\.$/, '');
}

/**
 * The browser's localStorage, or a storage whose every call throws why it cannot be used: even
 * reading `window.localStorage` throws where storage is blocked.
 */
export function browserStorage(): KeyValueStorage {
  try {
    const s = globalThis.localStorage as KeyValueStorage | undefined;
    if (s) return s;
    return failingStorage('this browser has no localStorage');
  } catch (e) {
    return failingStorage(storageReason(e));
  }
}

function failingStorage(why: string): KeyValueStorage {
  const fail = (): never => {
    throw new Error(why);
  };
  return { getItem: fail, setItem: fail, removeItem: fail };
}
