import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { openingTheme } from './ui/theme/theme.ts';
// The screens load on first use (ui/App.tsx), their style sheets with the page, in the order they
// have always had: the screens' own rules first, then the tokens and the app's rules, which win
// ties. A sheet that came with its lazily loaded screen would land after app.css and could change
// which rule wins.
import './ui/fonts/fonts.css';
import './ui/catalogue/catalogue.css';
import './charts/animations.css';
import './ui/export/export.css';
import './ui/step/stage.css';
import './ui/tokens.css';
import './ui/app.css';

// The link's (or the stored) theme before the first paint, so nothing flashes in the other one.
openingTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element to render the app into.');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
