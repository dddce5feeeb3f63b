import { useEffect, useState } from 'react';
import type { AppInfo } from '../../shared/contract/app';
import type { StationErrorData } from '../../shared/errors';
import { useStation } from './station-context';

const environmentLabel = { sandbox: 'SANDBOX', test: 'TEST', live: 'LIVE' } as const;

export function App() {
  const station = useStation();
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [error, setError] = useState<StationErrorData | null>(null);

  useEffect(() => {
    let current = true;
    void station['app.info']({}).then((result) => {
      if (!current) return;
      if (result.ok) setInfo(result.value);
      else setError(result.error);
    });
    return () => {
      current = false;
    };
  }, [station]);

  return (
    <div className={`app ${info ? `env-${info.environment}` : ''}`}>
      <header className="topbar">
        <h1>{info?.name ?? 'Packing Station'}</h1>
        {info && (
          <span className={`env-badge env-badge-${info.environment}`} data-testid="environment">
            {environmentLabel[info.environment]}
          </span>
        )}
      </header>
      <main className="first-screen" aria-live="polite">
        {error && (
          <p role="alert" className="error">
            {error.message}
          </p>
        )}
        {!info && !error && <p>Connecting to the station…</p>}
        {info && (
          <dl className="app-info" data-testid="app-info">
            <dt>Station</dt>
            <dd data-testid="station-name">{info.stationName}</dd>
            <dt>Version</dt>
            <dd data-testid="version">{info.version}</dd>
            <dt>API key</dt>
            <dd data-testid="key-status">{info.keySet ? 'A key is set' : 'No key set'}</dd>
            <dt>Running in</dt>
            <dd data-testid="host">{info.host === 'electron' ? 'Desktop app' : 'Browser (web host)'}</dd>
          </dl>
        )}
      </main>
    </div>
  );
}
