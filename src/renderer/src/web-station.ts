import type { CallName, CallResult, EventName, StationApi } from '../../shared/contract';
import type { StationErrorData } from '../../shared/errors';
import { ServerMessageSchema, webSocketPath } from '../../shared/web-protocol';
import type { ConnectionState } from './connection-state';

type Pending = (result: CallResult<unknown>) => void;

/** Waits between attempts to reach a station that went away: quick at first, then every 5 s. */
export const reconnectDelaysMs = [250, 500, 1000, 2000, 5000] as const;

export interface WebStationOptions {
  /** Told when the station goes away and when it is back. */
  connection?: ConnectionState;
  /** For tests: the waits between reconnection attempts. */
  delaysMs?: readonly number[];
}

/** The code a call gets while the station cannot be reached; the screen words it (a banner says what to do). */
const unreachable = (message: string): CallResult<never> => ({ ok: false, error: { code: 'STATION_UNREACHABLE', message } satisfies StationErrorData });

/**
 * `window.station` for a browser: the same calls as the Electron preload, carried over the web
 * host's WebSocket. The host's session cookie authorises the socket. When the socket drops (the
 * web host stopped), calls in flight resolve as STATION_UNREACHABLE, the connection state says
 * "lost", and the page tries again by itself with a growing wait until the host is back; then
 * events flow again and the state says "open".
 */
export function connectWebStation(location: Location, options: WebStationOptions = {}): StationApi {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const pending = new Map<number, Pending>();
  const delays = options.delaysMs ?? reconnectDelaysMs;
  let nextId = 1;
  let socket: WebSocket | null = null;
  let opened: Promise<WebSocket> | null = null;
  /** Set once anything listens or calls: from then on the page keeps a socket open. */
  let wanted = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const scheduleReconnect = () => {
    if (retryTimer !== null || !wanted) return;
    const delay = delays[Math.min(attempt, delays.length - 1)] ?? 5000;
    attempt++;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect().catch(() => undefined);
    }, delay);
  };

  const connect = (): Promise<WebSocket> => {
    if (opened) return opened;
    opened = new Promise((resolve, reject) => {
      const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${webSocketPath}`);
      let isOpen = false;
      ws.addEventListener('open', () => {
        isOpen = true;
        socket = ws;
        attempt = 0;
        options.connection?.set('open');
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
        for (const resolveCall of pending.values()) resolveCall(unreachable('The connection to the station was lost.'));
        pending.clear();
        if (!isOpen) reject(new Error('closed'));
        options.connection?.set('lost');
        scheduleReconnect();
      });
    });
    opened.catch(() => undefined);
    return opened;
  };

  const call = async (name: CallName, input: unknown): Promise<CallResult<unknown>> => {
    wanted = true;
    let ws: WebSocket;
    try {
      ws = socket ?? (await connect());
    } catch {
      return unreachable('The station could not be reached.');
    }
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      ws.send(JSON.stringify({ type: 'call', id, name, input: input ?? {} }));
    });
  };

  const on = (event: EventName, listener: (payload: unknown) => void) => {
    wanted = true;
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    void connect().catch(() => undefined);
    return () => set.delete(listener);
  };
  // A call is any `domain.name` the page asks for: the contract's types name the calls, and the host
  // answers a name it does not know with UNKNOWN_CALL. So the page holds no list of names of its own
  // (the contract itself would build every call's schemas at the page's start).
  const callers = new Map<string, (input: unknown) => Promise<CallResult<unknown>>>();
  const callerOf = (name: string) => {
    let caller = callers.get(name);
    if (!caller) {
      caller = (input: unknown) => call(name as CallName, input);
      callers.set(name, caller);
    }
    return caller;
  };
  return new Proxy(Object.freeze({ on }), {
    get: (target, name) => (typeof name === 'string' && callName.test(name) ? callerOf(name) : Reflect.get(target, name)),
  }) as unknown as StationApi;
}

/** The shape of a call's name: its domain, a dot, its name (`printing.scan`). */
const callName = /^[a-z]+\.[a-zA-Z]+$/;
