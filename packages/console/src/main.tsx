import './styles.css';
import './pages.css';
import { render } from 'preact';
import { LocationProvider } from 'preact-iso';
import { loadLanguage, pickConsoleLanguage } from './i18n.js';
import { rememberedLanguage } from './remembered.js';
import { App } from './ui/app.js';

/** Renders the Console into `root` in the member's language (its catalog loaded first; English if it fails). */
async function start(root: HTMLElement): Promise<void> {
  await loadLanguage(pickConsoleLanguage(rememberedLanguage(), navigator.languages)).catch(() => undefined);
  render(
    <LocationProvider scope="/console">
      <App />
    </LocationProvider>,
    root,
  );
}

const root = document.getElementById('app');
if (root) void start(root);
