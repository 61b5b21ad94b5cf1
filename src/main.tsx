import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import './ui/tokens.css';
import './ui/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element to render the app into.');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
