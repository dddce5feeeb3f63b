/**
 * The contract between the screen and the station's core: every call the renderer may make
 * (name → zod input and output) and every event main may push. The Electron preload, the IPC
 * dispatcher and the web host are all generated from these two tables, so a call exists
 * everywhere or nowhere. The API key never appears in any schema here.
 */
import type { z } from 'zod';
import { appCalls, appEvents } from './contract/app';
import { floorCalls, floorEvents } from './contract/floor';
import { importsCalls, importsEvents } from './contract/imports';
import { keysCalls } from './contract/keys';
import { ordersCalls } from './contract/orders';
import { printersCalls, printersEvents } from './contract/printers';
import { printingCalls, printingEvents } from './contract/printing';
import { scalesCalls, scalesEvents } from './contract/scales';
import { sandboxCalls } from './contract/embedded-sandbox';
import { settingsCalls } from './contract/settings';
import { shippingCalls } from './contract/shipping';
import { storeCalls, storeEvents } from './contract/store';
import { supervisionCalls, supervisionEvents } from './contract/supervision';
import { uploadCalls, uploadEvents } from './contract/upload';
import { webhooksCalls, webhooksEvents } from './contract/webhooks';
import type { StationErrorData } from './errors';

export const calls = {
  ...appCalls,
  ...settingsCalls,
  ...keysCalls,
  ...ordersCalls,
  ...importsCalls,
  ...webhooksCalls,
  ...printersCalls,
  ...printingCalls,
  ...sandboxCalls,
  ...supervisionCalls,
  ...shippingCalls,
  ...uploadCalls,
  ...storeCalls,
  ...scalesCalls,
  ...floorCalls,
} as const;

export const events = {
  ...appEvents,
  ...importsEvents,
  ...printersEvents,
  ...printingEvents,
  ...webhooksEvents,
  ...supervisionEvents,
  ...uploadEvents,
  ...storeEvents,
  ...scalesEvents,
  ...floorEvents,
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallInput<K extends CallName> = z.input<Calls[K]['input']>;
export type CallOutput<K extends CallName> = z.output<Calls[K]['output']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<K extends EventName> = z.output<Events[K]['payload']>;

/** Every call resolves to data: a value or an error with a stable code. It never rejects. */
export type CallResult<T> = { ok: true; value: T } | { ok: false; error: StationErrorData };

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

export const isCallName = (name: unknown): name is CallName => typeof name === 'string' && Object.hasOwn(calls, name);
export const isEventName = (name: unknown): name is EventName => typeof name === 'string' && Object.hasOwn(events, name);

/** What the renderer sees as `window.station`: exactly one function per call, plus events. */
export type StationApi = {
  readonly [K in CallName]: (input: CallInput<K>) => Promise<CallResult<CallOutput<K>>>;
} & {
  readonly on: <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => () => void;
};

/** Names of the IPC channels the preload and the Electron shell use. */
export const ipcChannels = { call: 'station:call', event: 'station:event' } as const;
