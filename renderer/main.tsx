// Renderer entry: mounts the app. Styles are imported here so Vite bundles them.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App.js';
import { installUiFonts } from './canvas/scene.js';
import './styles.css';

installUiFonts();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
