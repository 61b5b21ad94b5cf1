import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { openingTheme } from './ui/theme/theme.ts';
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
