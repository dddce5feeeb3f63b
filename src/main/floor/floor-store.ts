/**
 * The floor's rows in the store: each bench's report (bench_floor) and the leads' actions sent to
 * benches (floor_commands), with the notifications that carry them to every bench. Reports travel
 * whole in their notification when they fit (PostgreSQL's limit is 8000 bytes), so fifty benches
 * hearing a change read nothing; a report too long for it is named by bench and read.
 */
import { z } from 'zod';
import type { Environment } from '../../shared/contract/app';
import { BenchReportSchema, FloorActionSchema, FloorCommandSchema, type BenchReportData, type FloorAction, type FloorCommandData, type FloorLeadData } from '../../shared/contract/floor';
import { StationError, StationErrorDataSchema, type StationErrorData } from '../../shared/errors';
import type { StoreEngine, StoreSession, Subscription, SubscriptionHandlers } from '../store';

/** Reports and heartbeats. */
export const floorChannel = 'bench_floor';
/** A new action for a bench, and a bench's answer to one. */
export const commandsChannel = 'floor_commands';

/** Below PostgreSQL's 8000-byte payload limit, with room for the envelope. */
const payloadLimit = 7_500;

export const ReportMessageSchema = z.object({
  bench: z.string(),
  sequence: z.number().int(),
  reportedAt: z.string(),
  /** Absent on a heartbeat that changed nothing, or when the report is too long to travel: read the row. */
  report: z.unknown().optional(),
  /** A heartbeat: the report is the one of the sequence before. */
  unchanged: z.boolean().optional(),
});
export type ReportMessage = z.infer<typeof ReportMessageSchema>;

export const CommandMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('new'), bench: z.string(), id: z.number().int() }),
  z.object({ kind: z.literal('settled'), bench: z.string(), id: z.number().int() }),
]);
export type CommandMessage = z.infer<typeof CommandMessageSchema>;

export interface StoredReport {
  report: BenchReportData;
  sequence: number;
  reportedAt: string;
}

const ReportRowSchema = z.object({ report: z.string(), sequence: z.coerce.number(), reported_at: z.string() });

const CommandRowSchema = z.object({
  id: z.coerce.number(),
  environment: FloorCommandSchema.shape.environment,
  bench: z.string(),
  bench_name: z.string(),
  action: FloorActionSchema,
  target: z.string(),
  input: z.string(),
  operator: z.string(),
  from_bench_name: z.string(),
  state: FloorCommandSchema.shape.state,
  outcome: z.string().nullable(),
  created_at: z.string(),
  settled_at: z.string().nullable(),
});
type CommandRow = z.infer<typeof CommandRowSchema>;

const OutcomeSchema = z.object({ error: StationErrorDataSchema.nullable().catch(null), runId: z.string().nullable().catch(null) });

const commandColumns = 'id, environment, bench, bench_name, action, target, input, operator, from_bench_name, state, outcome, created_at, settled_at';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A command row as the contract says it, with what it stored about its input. */
export interface StoredCommand {
  data: FloorCommandData;
  input: unknown;
  fromBenchName: string;
}

function toCommand(row: CommandRow): StoredCommand {
  const outcome = OutcomeSchema.safeParse(row.outcome === null ? {} : parseJson(row.outcome));
  return {
    data: {
      id: row.id,
      environment: row.environment,
      benchId: row.bench,
      benchName: row.bench_name,
      action: row.action,
      target: row.target,
      operator: row.operator,
      fromBenchName: row.from_bench_name,
      state: row.state,
      error: outcome.success ? outcome.data.error : null,
      runId: outcome.success ? outcome.data.runId : null,
      createdAt: row.created_at,
      settledAt: row.settled_at,
    },
    input: parseJson(row.input),
    fromBenchName: row.from_bench_name,
  };
}

export interface NewCommand {
  environment: Environment;
  bench: string;
  benchName: string;
  action: FloorAction;
  target: string;
  /** The last action on the target the lead saw; null: the newest there is now. */
  seen: number | null;
  input: unknown;
  operator: string;
  fromBench: string;
  fromBenchName: string;
  at: string;
}

export class FloorStore {
  constructor(private readonly engine: StoreEngine) {}

  /**
   * Writes this bench's report (a new sequence) and tells every bench. `changed` false: a heartbeat,
   * whose notification carries no report. Answers the sequence written.
   */
  async writeReport(report: BenchReportData, reportedAt: string, changed: boolean): Promise<number> {
    const text = JSON.stringify(report);
    const [row] = await this.engine.query<{ sequence: unknown }>(
      `INSERT INTO bench_floor (bench, bench_name, report, sequence, reported_at) VALUES ($1, $2, $3, 1, $4)
       ON CONFLICT (bench) DO UPDATE SET bench_name = excluded.bench_name, report = excluded.report, sequence = bench_floor.sequence + 1, reported_at = excluded.reported_at
       RETURNING sequence`,
      [report.benchId, report.stationName, text, reportedAt],
    );
    const sequence = Number(row?.sequence ?? 0);
    const envelope = { bench: report.benchId, sequence, reportedAt };
    const whole = JSON.stringify({ ...envelope, report });
    const payload = !changed ? JSON.stringify({ ...envelope, unchanged: true }) : whole.length <= payloadLimit ? whole : JSON.stringify(envelope);
    await this.engine.notify(floorChannel, payload);
    return sequence;
  }

  async reports(): Promise<StoredReport[]> {
    const rows = await this.engine.query('SELECT report, sequence, reported_at FROM bench_floor ORDER BY bench_name, bench');
    return rows.flatMap((raw) => {
      const stored = this.toStored(raw);
      return stored ? [stored] : [];
    });
  }

  async report(bench: string): Promise<StoredReport | null> {
    const [raw] = await this.engine.query('SELECT report, sequence, reported_at FROM bench_floor WHERE bench = $1', [bench]);
    return raw ? this.toStored(raw) : null;
  }

  /** A row another version wrote in a shape this one cannot read is left out, not fatal. */
  private toStored(raw: unknown): StoredReport | null {
    const row = ReportRowSchema.safeParse(raw);
    if (!row.success) return null;
    const report = BenchReportSchema.safeParse(parseJson(row.data.report));
    return report.success ? { report: report.data, sequence: row.data.sequence, reportedAt: row.data.reported_at } : null;
  }

  followReports(handlers: SubscriptionHandlers): Promise<Subscription> {
    return this.engine.subscribe(floorChannel, handlers);
  }

  followCommands(handlers: SubscriptionHandlers): Promise<Subscription> {
    return this.engine.subscribe(commandsChannel, handlers);
  }

  /**
   * Records a lead's action and tells its bench, in one transaction. Of two leads acting on what
   * they both saw, one inserts and the other finds the key taken: FLOOR_ACTED_FIRST, naming the first.
   * A lead's own earlier action counts as seen, even when their floor has not shown it yet (a pause,
   * then a cancel pressed before the pause came back): only another bench's action comes first.
   */
  async addCommand(command: NewCommand): Promise<StoredCommand> {
    try {
      return await this.engine.transaction(async (tx) => {
        const after = command.seen === null ? await this.lastOn(tx, command.environment, command.target) : await this.seenWithOwn(tx, command, command.seen);
        const [inserted] = await tx.query(
          `INSERT INTO floor_commands (environment, bench, bench_name, action, target, after_command, input, operator, from_bench, from_bench_name, state, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11)
           RETURNING ${commandColumns}`,
          [command.environment, command.bench, command.benchName, command.action, command.target, after, JSON.stringify(command.input ?? {}), command.operator, command.fromBench, command.fromBenchName, command.at],
        );
        const stored = toCommand(CommandRowSchema.parse(inserted));
        await tx.notify(commandsChannel, JSON.stringify({ kind: 'new', bench: command.bench, id: stored.data.id }));
        return stored;
      });
    } catch (error) {
      if (!(error instanceof StationError) || error.code !== 'STORE_CONFLICT') throw error;
      throw await this.actedFirst(command);
    }
  }

  private async lastOn(session: StoreSession, environment: Environment, target: string): Promise<number> {
    const [row] = await session.query<{ id: unknown }>('SELECT max(id) AS id FROM floor_commands WHERE environment = $1 AND target = $2', [environment, target]);
    return row?.id === null || row?.id === undefined ? 0 : Number(row.id);
  }

  /** What the lead saw, or their own bench's last action on the target if that is later. */
  private async seenWithOwn(session: StoreSession, command: NewCommand, seen: number): Promise<number> {
    const [row] = await session.query<{ id: unknown }>('SELECT max(id) AS id FROM floor_commands WHERE environment = $1 AND target = $2 AND from_bench = $3', [
      command.environment,
      command.target,
      command.fromBench,
    ]);
    const own = row?.id === null || row?.id === undefined ? 0 : Number(row.id);
    return Math.max(seen, own);
  }

  /** The action that got in first after what the losing lead saw: another bench's. */
  private async actedFirst(command: NewCommand): Promise<StationError> {
    const seen = await this.seenWithOwn(this.engine, command, command.seen ?? 0);
    const [raw] = await this.engine.query(
      `SELECT ${commandColumns} FROM floor_commands WHERE environment = $1 AND target = $2 AND id > $3 AND from_bench <> $4 ORDER BY id LIMIT 1`,
      [command.environment, command.target, seen, command.fromBench],
    );
    const first = raw ? toCommand(CommandRowSchema.parse(raw)).data : null;
    return new StationError(
      'FLOOR_ACTED_FIRST',
      first
        ? `${first.operator} at ${first.fromBenchName} acted on this first (${first.action}, ${first.createdAt}): nothing was sent. Look at the floor again, then decide.`
        : 'Another lead acted on this first: nothing was sent. Look at the floor again, then decide.',
      undefined,
      { facts: { operator: first?.operator ?? null, benchName: first?.fromBenchName ?? null, action: first?.action ?? null, since: first?.createdAt ?? null } },
    );
  }

  async command(id: number): Promise<StoredCommand | null> {
    const [raw] = await this.engine.query(`SELECT ${commandColumns} FROM floor_commands WHERE id = $1`, [id]);
    return raw ? toCommand(CommandRowSchema.parse(raw)) : null;
  }

  /** This bench's actions not yet applied, oldest first. */
  async waiting(bench: string): Promise<StoredCommand[]> {
    const rows = await this.engine.query(`SELECT ${commandColumns} FROM floor_commands WHERE bench = $1 AND state IN ('pending', 'applying') ORDER BY id`, [bench]);
    return rows.map((raw) => toCommand(CommandRowSchema.parse(raw)));
  }

  /** Takes a pending action for applying; false when another process of the bench took it. */
  async claim(id: number): Promise<boolean> {
    const { changes } = await this.engine.execute("UPDATE floor_commands SET state = 'applying' WHERE id = $1 AND state = 'pending'", [id]);
    return changes === 1;
  }

  /** The bench's answer: applied (with the run it started), refused (with why), or expired. */
  async settle(id: number, bench: string, state: 'done' | 'failed' | 'expired', outcome: { error: StationErrorData | null; runId: string | null }, at: string): Promise<void> {
    await this.engine.transaction(async (tx) => {
      await tx.execute('UPDATE floor_commands SET state = $1, outcome = $2, settled_at = $3 WHERE id = $4', [state, JSON.stringify(outcome), at, id]);
      await tx.notify(commandsChannel, JSON.stringify({ kind: 'settled', bench, id }));
    });
  }

  /** The last settled action on each of these targets, for the report (what the next action acts after). */
  async lastActions(environment: Environment, targets: readonly string[]): Promise<Map<string, FloorLeadData>> {
    const found = new Map<string, FloorLeadData>();
    if (targets.length === 0) return found;
    const list = targets.map((_, index) => `$${index + 2}`).join(', ');
    const rows = await this.engine.query(
      `SELECT ${commandColumns} FROM floor_commands WHERE id IN (
         SELECT max(id) FROM floor_commands WHERE environment = $1 AND target IN (${list}) AND state IN ('done', 'failed', 'expired') GROUP BY target)`,
      [environment, ...targets],
    );
    for (const raw of rows) {
      const { data } = toCommand(CommandRowSchema.parse(raw));
      if (data.state !== 'done' && data.state !== 'failed' && data.state !== 'expired') continue;
      found.set(data.target, { commandId: data.id, action: data.action, operator: data.operator, benchName: data.fromBenchName, at: data.settledAt ?? data.createdAt, outcome: data.state });
    }
    return found;
  }
}

export const runTarget = (runId: string): string => `run:${runId}`;
export const labelTarget = (entryId: number): string => `label:${entryId}`;
export const printerTarget = (printerId: string): string => `printer:${printerId}`;
