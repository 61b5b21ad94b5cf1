import { describe, expect, it } from 'vitest';
import type { KeyValueStorage } from '../../store/storage.ts';
import { refusedText, themeOf, withTheme } from './theme.ts';

function memory(entries: Record<string, string> = {}): KeyValueStorage {
  const m = new Map(Object.entries(entries));
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => m.set(k, v),
    removeItem: (k) => m.delete(k),
  };
}
const blocked: KeyValueStorage = {
  getItem: () => {
    throw new Error('blocked');
  },
  setItem: () => {
    throw new Error('blocked');
  },
  removeItem: () => {
    throw new Error('blocked');
  },
};

describe('the theme a page opens in', () => {
  it("is the link's, over the one this browser stored", () => {
    const stored = memory({ 'percpu-lab:theme': 'dark' });
    expect(themeOf('?theme=contrast', stored)).toEqual({ theme: 'contrast', refused: null });
    // The menu calls it Projector: a link may too.
    expect(themeOf('?theme=projector', stored)).toEqual({ theme: 'contrast', refused: null });
    expect(themeOf('', stored)).toEqual({ theme: 'dark', refused: null });
  });

  it('says what a link asked for that is not a theme, and keeps the stored one', () => {
    expect(themeOf('?theme=neon', memory({ 'percpu-lab:theme': 'light' }))).toEqual({
      theme: 'light',
      refused: 'neon',
    });
    // In the menu's words: there is no "contrast" in the menu.
    expect(refusedText('neon', 'light')).toBe(
      '‘neon’ is not a theme (auto, light, dark or projector): showing Light.',
    );
  });

  it('is Auto with nothing stored, a stored value that is not a theme, or blocked storage', () => {
    expect(themeOf('', memory()).theme).toBe('auto');
    expect(themeOf('', memory({ 'percpu-lab:theme': 'sepia' })).theme).toBe('auto');
    expect(themeOf('', blocked).theme).toBe('auto');
  });
});

describe('a link with a theme', () => {
  it('keeps the other parameters and drops the theme for Auto', () => {
    expect(withTheme('?embed=1', 'dark')).toBe('?embed=1&theme=dark');
    expect(withTheme('?theme=dark&embed=1', 'auto')).toBe('?embed=1');
    expect(withTheme('?theme=dark', 'auto')).toBe('');
    expect(withTheme('', 'contrast')).toBe('?theme=projector');
  });
});
