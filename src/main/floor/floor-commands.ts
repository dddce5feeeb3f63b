/**
 * A lead's actions from the floor. The lead's bench records the action in the store (one row,
 * journaled with who and from where; of two leads acting on the same run or label at once, the
 * store's unique key lets one in and the other is told who was first) and notifies; the bench the
 * action is for hears it, applies it with its own run controls (so a pause stops within the
 * printer's buffer limit, as on the bench itself), writes what came of it and notifies back; the
 * lead's call answers with that. Nothing here depends on timing: a bench that does not answer
 * leaves the action pending, and an action older than `expireAfterMs` when its bench sees it is
 * never applied (a bench back after an hour does not pause a run because of an old click).
 */
import type { FloorActInput, FloorBenchData, FloorCommandData } from '../../shared/contract/floor';
import { StationError, type StationErrorData } from '../../shared/errors';
import type { EventBus } from '../contract/event-bus';
import type { Logger } from '../logging/logger';
import type { Subscription } from '../store';
import { parseJsonWith } from './floor-timers';
import { CommandMessageSchema, labelTarget, printerTarget, runTarget, type FloorStore, type StoredCommand } from './floor-store';
import { errorText } from '../../shared/error-text';

/** What applying an action at its bench started (a run), for the lead's answer. */
export interface Applied {
  runId: string | null;
}

export interface FloorCommandsDeps {
  store: FloorStore;
  self: { id: string; name(): string };
  operator(): string;
  /** The bench an action is for, as the floor knows it now. */
  bench(benchId: string): Promise<FloorBenchData | null>;
  /** Applies an action at this bench (the bench's own controls, held at the place its journal writes to, as a call is). */
  apply(command: StoredCommand): Promise<Applied>;
  events: EventBus;
  clock(): number;
  /** How long a lead's call waits for the bench's answer before it answers "pending". Default 8 s. */
  answerWithinMs?: number;
  /** An action older than this when its bench first sees it is not applied. Default 30 s. */
  expireAfterMs?: number;
  logger: Logger;
}

interface Waiter {
  resolve(): void;
}

export class FloorCommands {
  private subscription: Promise<Subscription> | null = null;
  private applying = false;
  private readonly waiters = new Map<number, Set<Waiter>>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: FloorCommandsDeps) {}

  /** This bench applies the actions sent to it from now on, and those waiting for it (a long-running host only). */
  async applyHere(): Promise<void> {
    this.applying = true;
    await this.listen();
    await this.applyWaiting();
  }

  /**
   * `here`: this process applies the action itself, at once (a bench on its own file, where no
   * other process hears the store's notifications).
   */
  async act(input: FloorActInput, here = false): Promise<FloorCommandData> {
    const operator = input.operator?.trim() || this.deps.operator();
    if (operator === '') throw new StationError('OPERATOR_REQUIRED', 'Say who you are before you act on a bench: enter your name as the operator.', undefined, { facts: { action: 'floor' } });
    const bench = await this.deps.bench(input.benchId);
    if (!bench) throw new StationError('NOT_FOUND', `No bench ${input.benchId} reports to the floor.`, undefined, { facts: { subject: 'bench', id: input.benchId } });
    if (bench.answering !== 'yes') {
      throw new StationError('BENCH_NOT_ANSWERING', `${bench.stationName} has not answered since ${bench.heardAt}: nothing was sent.`, undefined, {
        facts: { benchName: bench.stationName, since: bench.answering === 'stopped' ? (bench.stoppedAt ?? bench.heardAt) : bench.heardAt, ...(bench.answering === 'stopped' ? { subject: 'stopped' } : {}) },
      });
    }
    await this.listen();
    const stored = await this.deps.store.addCommand({
      environment: bench.environment,
      bench: bench.benchId,
      benchName: bench.stationName,
      action: input.action,
      target: targetOf(input),
      seen: 'seen' in input && input.seen !== undefined ? input.seen : null,
      input: input.action === 'send-bundles' ? { printerId: input.printerId, bundleIds: input.bundleIds, reverse: input.reverse === true } : {},
      operator,
      fromBench: this.deps.self.id,
      fromBenchName: this.deps.self.name(),
      at: new Date(this.deps.clock()).toISOString(),
    });
    if (here) await this.applyOne(stored.data.id);
    const answer = await this.answerTo(stored.data.id);
    if (answer.state === 'failed' && answer.error) throw fromData(answer.error);
    return answer;
  }

  async close(): Promise<void> {
    this.applying = false;
    const subscription = this.subscription;
    this.subscription = null;
    await (await subscription?.catch(() => null))?.close();
    await this.queue;
  }

  private listen(): Promise<Subscription> {
    this.subscription ??= this.deps.store
      .followCommands({
        onMessage: (payload) => this.heard(payload),
        onGap: () => {
          // Answers sent meanwhile were missed: the waiting calls read their rows again.
          for (const set of this.waiters.values()) for (const waiter of set) waiter.resolve();
          if (this.applying) void this.applyWaiting();
        },
      })
      .catch((error: unknown) => {
        this.subscription = null;
        throw error;
      });
    return this.subscription;
  }

  private heard(payload: string): void {
    const message = parseJsonWith(CommandMessageSchema, payload);
    if (!message) return;
    if (message.kind === 'settled') {
      for (const waiter of this.waiters.get(message.id) ?? []) waiter.resolve();
      return;
    }
    if (this.applying && message.bench === this.deps.self.id) this.enqueue(message.id);
  }

  /** Waits for the bench's answer (or the wait's end), then reads the row. */
  private async answerTo(id: number): Promise<FloorCommandData> {
    const limit = this.deps.answerWithinMs ?? 8_000;
    const deadline = this.deps.clock() + limit;
    for (;;) {
      let waiter: Waiter | undefined;
      const heard = new Promise<void>((resolve) => {
        waiter = { resolve };
        const set = this.waiters.get(id) ?? new Set<Waiter>();
        set.add(waiter);
        this.waiters.set(id, set);
      });
      const current = await this.deps.store.command(id);
      const left = deadline - this.deps.clock();
      if (!current) throw new StationError('INTERNAL', `The floor action ${id} could not be read back.`);
      if ((current.data.state !== 'pending' && current.data.state !== 'applying') || left <= 0) {
        this.forget(id, waiter);
        return current.data;
      }
      // Time is the input here: the wait for a bench's answer is bounded, as a lead's patience is.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([heard, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
      this.forget(id, waiter);
    }
  }

  private forget(id: number, waiter: Waiter | undefined): void {
    const set = this.waiters.get(id);
    if (!set || !waiter) return;
    set.delete(waiter);
    if (set.size === 0) this.waiters.delete(id);
  }

  private async applyWaiting(): Promise<void> {
    try {
      for (const command of await this.deps.store.waiting(this.deps.self.id)) this.enqueue(command.data.id);
    } catch (error) {
      this.deps.logger.warn('the floor actions for this bench could not be read', { error: errorText(error) });
    }
  }

  /** One action at a time, in the order they arrived. */
  private enqueue(id: number): void {
    this.queue = this.queue.then(() => this.applyOne(id)).catch((error: unknown) => {
      this.deps.logger.warn('a floor action could not be applied', { id, error: errorText(error) });
    });
  }

  private async applyOne(id: number): Promise<void> {
    const command = await this.deps.store.command(id);
    if (!command || command.data.benchId !== this.deps.self.id) return;
    const now = this.deps.clock();
    const age = now - Date.parse(command.data.createdAt);
    const at = () => new Date(this.deps.clock()).toISOString();
    if (command.data.state === 'applying' || age > (this.deps.expireAfterMs ?? 30_000)) {
      // Left mid-way by a bench that stopped, or come too late: never applied now.
      if (command.data.state === 'pending' || command.data.state === 'applying') await this.deps.store.settle(id, this.deps.self.id, 'expired', { error: null, runId: null }, at());
      return;
    }
    if (command.data.state !== 'pending' || !(await this.deps.store.claim(id))) return;
    let applied: Applied;
    try {
      applied = await this.deps.apply(command);
    } catch (error) {
      const data: StationErrorData = error instanceof StationError ? error.toData() : { code: 'INTERNAL', message: errorText(error) };
      await this.deps.store.settle(id, this.deps.self.id, 'failed', { error: data, runId: null }, at());
      return;
    }
    await this.deps.store.settle(id, this.deps.self.id, 'done', { error: null, runId: applied.runId }, at());
    this.deps.events.emit('floor.actedHere', { ...command.data, state: 'done', runId: applied.runId, settledAt: at() });
  }
}

function targetOf(input: FloorActInput): string {
  switch (input.action) {
    case 'pause':
    case 'resume':
    case 'cancel':
      return runTarget(input.runId);
    case 'settle-printed':
    case 'settle-print-again':
      return labelTarget(input.entryId);
    case 'send-bundles':
      return printerTarget(input.printerId);
  }
}

function fromData(error: StationErrorData): StationError {
  return new StationError(error.code, error.message, error.details, error.facts ? { facts: error.facts } : undefined);
}

/** Reads a floor action's target back: the run or the label it is about. */
export function commandSubject(target: string): { run: string } | { entry: number } | { printer: string } | null {
  const [kind, id] = [target.slice(0, target.indexOf(':')), target.slice(target.indexOf(':') + 1)];
  if (kind === 'run' && id) return { run: id };
  if (kind === 'label' && Number.isInteger(Number(id))) return { entry: Number(id) };
  if (kind === 'printer' && id) return { printer: id };
  return null;
}

