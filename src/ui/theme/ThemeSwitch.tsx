import { useId, useState } from 'react';
import { applyTheme, openingTheme, refusedText, type Theme, THEME_NAMES, THEMES } from './theme.ts';

/** The Theme control (the page header, the lecture's bar). */
export function ThemeSwitch() {
  const id = useId();
  const [{ theme, refused }, setChoice] = useState(openingTheme);
  return (
    <div className="theme-switch">
      <label htmlFor={id}>Theme</label>
      <select
        id={id}
        value={theme}
        title="Auto follows the system's light or dark; Projector is high contrast for a beamer"
        onChange={(e) => {
          const t = e.target.value as Theme;
          applyTheme(t);
          setChoice({ theme: t, refused: null });
        }}
      >
        {THEMES.map((t) => (
          <option key={t} value={t}>
            {THEME_NAMES[t]}
          </option>
        ))}
      </select>
      {refused !== null && (
        <span role="status" className="hint">
          {refusedText(refused, theme)}
        </span>
      )}
    </div>
  );
}
