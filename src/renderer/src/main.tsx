import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { App } from './App';
import { StationProvider } from './station-context';
import { createStationStores, pageStorage } from './state/stores';
import { StoresProvider } from './state/stores-context';
import { paletteProperties } from './theme/palette';
import { connectWebStation } from './web-station';
import { createConnectionState } from './connection-state';
import './styles.css';

// In Electron the preload provides window.station; in a browser the web host's socket does,
// and only there can the station go away under the page.
const connection = window.station ? undefined : createConnectionState();
const station = window.station ?? connectWebStation(window.location, { connection });

const stores = createStationStores({
  station,
  storage: pageStorage(() => window.localStorage),
  browserLanguages: navigator.languages,
});

// Set through the CSSOM, which the CSP allows (it forbids inline style attributes and <style>).
for (const [property, value] of paletteProperties()) document.documentElement.style.setProperty(property, value);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
const page = (
  <StrictMode>
    <StationProvider station={station}>
      <StoresProvider stores={stores}>
        <I18nextProvider i18n={stores.i18n}>
          <App connection={connection} />
        </I18nextProvider>
      </StoresProvider>
    </StationProvider>
  </StrictMode>
);
// Rendered once the bench's language is in, so a Dutch bench never flashes English.
void stores.languageReady.then(() => createRoot(root).render(page));
