import './styles.css';
import './pages.css';
import { render } from 'preact';
import { LocationProvider } from 'preact-iso';
import { App } from './ui/app.js';

const root = document.getElementById('app');
if (root) {
  render(
    <LocationProvider scope="/console">
      <App />
    </LocationProvider>,
    root,
  );
}
