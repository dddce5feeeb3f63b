/**
 * The station's calls as a command makes them: through the contract's dispatcher, as the screen's
 * calls go (input and output parsed there), typed by the contract's entry for each call.
 */
import type { CallInput, CallName, CallOutput, CallResult, EventName, EventPayload } from '../../shared/contract';
import type { Station } from '../composition';
import { callThrough } from '../contract/dispatcher';
import type { CliContext } from './command';
import { printError } from './output';

export interface StationCalls {
  /** The call's value, or null once its error is printed (the command then ends with exit 1). */
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K> | null>;
  /** The call's result, for a command that words an error itself or goes on without the value. */
  result<K extends CallName>(name: K, input: CallInput<K>): Promise<CallResult<CallOutput<K>>>;
  /** One event's payloads, typed by the contract; returns the way to stop listening. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function stationCalls(context: CliContext, station: Pick<Station, 'dispatcher' | 'events'>): StationCalls {
  const result = <K extends CallName>(name: K, input: CallInput<K>) => callThrough(station.dispatcher, name, input, { host: 'web' });
  return {
    result,
    async call(name, input) {
      const answer = await result(name, input);
      if (answer.ok) return answer.value;
      printError(context, answer.error);
      return null;
    },
    on: (event, listener) => station.events.on(event, listener),
  };
}

/** Builds the station over the command's data folder and answers its calls. */
export async function openCalls(context: CliContext): Promise<StationCalls> {
  return stationCalls(context, await context.openStation());
}
