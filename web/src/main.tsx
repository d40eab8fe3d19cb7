import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
  // The browser tests read this to time the first load (sign-in form usable).
  performance.mark('dashboard-ready');
}
