/**
 * Whether the screen can reach the station. Only a browser page can lose it (the web host
 * stopped); the desktop app's screen and its station live and die together. Set by
 * web-station.ts, read by the connection banner.
 */
export type ConnectionStatus = 'open' | 'lost';

export interface ConnectionState {
  get(): ConnectionStatus;
  set(status: ConnectionStatus): void;
  /** Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export function createConnectionState(): ConnectionState {
  let status: ConnectionStatus = 'open';
  const listeners = new Set<() => void>();
  return {
    get: () => status,
    set(next) {
      if (next === status) return;
      status = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
