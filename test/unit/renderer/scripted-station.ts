import { callNames, type CallInput, type CallName, type CallOutput, type CallResult, type EventName, type EventPayload, type StationApi } from '../../../src/shared/contract';

type Answers = { [K in CallName]?: (input: CallInput<K>) => CallResult<CallOutput<K>> | Promise<CallResult<CallOutput<K>>> };

/**
 * A station that answers the calls a test scripts (others answer UNKNOWN_CALL, as a station of
 * another version would), records every call, and pushes events when the test says.
 */
export function scriptedStation(answers: Answers) {
  const calls: { name: CallName; input: unknown }[] = [];
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const api: Record<string, unknown> = Object.fromEntries(
    callNames.map((name) => [
      name,
      async (input: unknown) => {
        calls.push({ name, input });
        const answer = answers[name] as ((input: unknown) => unknown) | undefined;
        return answer ? await answer(input) : { ok: false, error: { code: 'UNKNOWN_CALL', message: `no answer scripted for ${name}` } };
      },
    ]),
  );
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => set.delete(listener);
  };
  return {
    station: api as unknown as StationApi,
    calls,
    named: (name: CallName) => calls.filter((call) => call.name === name),
    emit<E extends EventName>(event: E, payload: EventPayload<E>) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    listenerCount: (event: EventName) => listeners.get(event)?.size ?? 0,
  };
}

export const ok = <T>(value: T): CallResult<T> => ({ ok: true, value });
