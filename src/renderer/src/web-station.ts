import { callNames, type CallName, type CallResult, type EventName, type StationApi } from '../../shared/contract';
import { ServerMessageSchema, webSocketPath } from '../../shared/web-protocol';

type Pending = (result: CallResult<unknown>) => void;

/**
 * `window.station` for a browser: the same calls as the Electron preload, carried over the web
 * host's WebSocket. The host's session cookie authorises the socket. If the socket drops, calls
 * in flight resolve as network errors and the next call reconnects.
 */
export function connectWebStation(location: Location): StationApi {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let opened: Promise<WebSocket> | null = null;

  const connect = (): Promise<WebSocket> => {
    if (opened) return opened;
    opened = new Promise((resolve, reject) => {
      const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${webSocketPath}`);
      ws.addEventListener('open', () => {
        socket = ws;
        resolve(ws);
      });
      ws.addEventListener('message', (event) => {
        let message;
        try {
          message = ServerMessageSchema.safeParse(JSON.parse(String(event.data)));
        } catch {
          return;
        }
        if (!message.success) return;
        const data = message.data;
        if (data.type === 'result') {
          pending.get(data.id)?.(data.result as CallResult<unknown>);
          pending.delete(data.id);
        } else {
          for (const listener of listeners.get(data.name as EventName) ?? []) listener(data.payload);
        }
      });
      ws.addEventListener('close', () => {
        socket = null;
        opened = null;
        for (const resolveCall of pending.values()) {
          resolveCall({ ok: false, error: { code: 'NETWORK', message: 'The connection to the station was lost. Reload the page.' } });
        }
        pending.clear();
        reject(new Error('closed'));
      });
    });
    opened.catch(() => undefined);
    return opened;
  };

  const call = async (name: CallName, input: unknown): Promise<CallResult<unknown>> => {
    let ws: WebSocket;
    try {
      ws = socket ?? (await connect());
    } catch {
      return { ok: false, error: { code: 'NETWORK', message: 'The station could not be reached. Reload the page with the link the web host printed.' } };
    }
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      ws.send(JSON.stringify({ type: 'call', id, name, input: input ?? {} }));
    });
  };

  const api: Record<string, unknown> = Object.fromEntries(callNames.map((name) => [name, (input: unknown) => call(name, input)]));
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    void connect();
    return () => set.delete(listener);
  };
  return Object.freeze(api) as unknown as StationApi;
}
