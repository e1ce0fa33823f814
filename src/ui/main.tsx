import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyTheme, readTheme } from './session';
import { installPageLogger } from './log';
import { markEntryPage } from './router';
import './styles.css';

applyTheme(readTheme());
installPageLogger();
markEntryPage();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
