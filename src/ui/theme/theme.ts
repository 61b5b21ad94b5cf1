// The page's colour theme: Auto (the system's light or dark), Light, Dark, or Projector (high
// contrast). A link may carry it (`?theme=projector`, before the hash, so every mode's route stays
// its own) so that a lecture opens in the theme its room needs; otherwise the last choice made on
// this browser is kept. tokens.css does the rest from <html data-theme>.

import { browserStorage, type KeyValueStorage } from '../../store/storage.ts';

export const THEMES = ['auto', 'light', 'dark', 'contrast'] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_NAMES: Readonly<Record<Theme, string>> = {
  auto: 'Auto',
  light: 'Light',
  dark: 'Dark',
  contrast: 'Projector',
};

const KEY = 'percpu-lab:theme';

function isTheme(t: string): t is Theme {
  return (THEMES as readonly string[]).includes(t);
}

/**
 * A theme as a link writes it: the menu's name in lower case ("projector"), so the word in the
 * address, in a refusal and on the menu agree. (`contrast`, the page's own name for it, is read
 * too: links written before say so.)
 */
const LINK_WORDS: Readonly<Record<Theme, string>> = {
  auto: 'auto',
  light: 'light',
  dark: 'dark',
  contrast: 'projector',
};

function themeNamed(word: string): Theme | null {
  const t = THEMES.find((k) => LINK_WORDS[k] === word.toLowerCase());
  return t ?? (isTheme(word) ? word : null);
}

/** What the Theme control says when a link asked for a theme that does not exist. */
export function refusedText(refused: string, shown: Theme): string {
  const words = THEMES.map((t) => LINK_WORDS[t]);
  return `‘${refused}’ is not a theme (${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}): showing ${THEME_NAMES[shown]}.`;
}

export interface ThemeChoice {
  readonly theme: Theme;
  /** What the link asked for when it was not a theme, to say so. */
  readonly refused: string | null;
}

/** The theme a page opens in: the link's, else the stored one, else Auto. */
export function themeOf(search: string, storage: KeyValueStorage): ThemeChoice {
  const asked = new URLSearchParams(search).get('theme');
  if (asked !== null) {
    const t = themeNamed(asked);
    if (t !== null) return { theme: t, refused: null };
    return { theme: storedTheme(storage), refused: asked };
  }
  return { theme: storedTheme(storage), refused: null };
}

function storedTheme(storage: KeyValueStorage): Theme {
  try {
    const t = storage.getItem(KEY);
    return t !== null && isTheme(t) ? t : 'auto';
  } catch {
    return 'auto'; // storage blocked: the system's theme
  }
}

/** `search` with the theme set (or removed, for Auto), the other parameters kept. */
export function withTheme(search: string, theme: Theme): string {
  const q = new URLSearchParams(search);
  if (theme === 'auto') q.delete('theme');
  else q.set('theme', LINK_WORDS[theme]);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Puts the theme on the page, in the address (so a copied link keeps it) and in storage. */
export function applyTheme(theme: Theme, storage: KeyValueStorage = browserStorage()): void {
  const root = document.documentElement;
  if (theme === 'auto') delete root.dataset.theme;
  else root.dataset.theme = theme;
  const search = withTheme(location.search, theme);
  if (search !== location.search) {
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  }
  try {
    storage.setItem(KEY, theme);
  } catch {
    // Blocked storage: the link still carries the theme.
  }
}

/** `?theme=…` for a link built from scratch (Step's Copy link), or '' for Auto. */
export function themeQuery(): string {
  const asked = new URLSearchParams(location.search).get('theme');
  const t = asked === null ? null : themeNamed(asked);
  return t !== null && t !== 'auto' ? `?theme=${LINK_WORDS[t]}` : '';
}

let opening: ThemeChoice | null = null;

/** The theme the page opened in, put on <html> before the first render (main.tsx). */
export function openingTheme(): ThemeChoice {
  if (!opening) {
    opening = themeOf(location.search, browserStorage());
    const root = document.documentElement;
    if (opening.theme === 'auto') delete root.dataset.theme;
    else root.dataset.theme = opening.theme;
  }
  return opening;
}
