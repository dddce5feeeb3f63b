import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { StationProvider } from './station-context';
import { connectWebStation } from './web-station';
import './styles.css';

// In Electron the preload provides window.station; in a browser the web host's socket does.
const station = window.station ?? connectWebStation(window.location);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <StationProvider station={station}>
      <App />
    </StationProvider>
  </StrictMode>,
);
