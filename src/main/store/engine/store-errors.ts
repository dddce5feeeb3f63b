/**
 * Driver errors as station errors, the same for both engines: a unique key already taken is
 * STORE_CONFLICT (details: the table, then its key columns), a store that cannot be reached is
 * STORE_UNAVAILABLE. Anything else (a bug in the SQL, a CHECK) stays the driver's error: the
 * dispatcher reports it as INTERNAL with the details in the log.
 */
import { StationError } from '../../../shared/errors';
import { errorText } from '../../../shared/error-text';

export function conflictError(table: string, columns: string[], cause: unknown): StationError {
  return new StationError('STORE_CONFLICT', `A row with this key already exists in ${table} (${columns.join(', ')}).`, [table, columns.join(', ')], { cause });
}

export function unavailableError(cause: unknown): StationError {
  const reason = errorText(cause);
  return new StationError('STORE_UNAVAILABLE', `The store cannot be reached: ${reason}`, undefined, { cause });
}

/** libsql: "UNIQUE constraint failed: orders.environment, orders.order_id" (also for primary keys). */
export function fromSqliteError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return error;
  const qualified = /constraint failed: (.+)$/.exec((error as Error).message)?.[1]?.split(', ') ?? [];
  const table = qualified[0]?.split('.')[0] ?? 'unknown';
  return conflictError(table, qualified.map((column) => column.split('.').slice(1).join('.')), error);
}

// SQLSTATE classes and codes that mean the server or the connection is gone, not the statement;
// and a password refused (28P01, 28000: changed on the server mid-day, seen when the pool opens a
// new connection): the store cannot be reached with it, so the bench goes offline and says why.
const unavailableStates = new Set(['57P01', '57P02', '57P03', '53300', '3D000', '28P01', '28000']);
const unavailableSystemCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * node-postgres raises a few failures of the connection itself with words and no code: each is
 * given a code here, the one place their words are read, and every caller classifies by code.
 */
const codelessDriverFailures: [RegExp, string][] = [
  [/does not support SSL/i, 'PG_SERVER_WITHOUT_TLS'],
  [/timeout exceeded when trying to connect|connection timeout/i, 'PG_CONNECT_TIMEOUT'],
  [/Connection terminated|terminating connection/i, 'PG_CONNECTION_TERMINATED'],
  [/Client has encountered a connection error/i, 'PG_CONNECTION_BROKEN'],
];

/** A driver error's code: the server's SQLSTATE, the system's or TLS's code, or the one given above to node-postgres's codeless connection failures. */
export function driverErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  if (!(error instanceof Error)) return undefined;
  return codelessDriverFailures.find(([words]) => words.test(error.message))?.[1];
}

/** True for a TLS refusal: a certificate not trusted under verify-full, or a server that speaks no TLS. */
export function isTlsCode(code: string | undefined): boolean {
  return code !== undefined && (code.startsWith('ERR_TLS_') || code.includes('CERT') || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' || code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'PG_SERVER_WITHOUT_TLS');
}

/** True when a PostgreSQL error says the connection, not the statement, failed. */
export function isConnectionFailure(error: unknown): boolean {
  const code = driverErrorCode(error);
  if (code === undefined) return false;
  return unavailableStates.has(code) || code.startsWith('08') || code.startsWith('PG_') || unavailableSystemCodes.has(code) || isTlsCode(code);
}

/** pg: SQLSTATE 23505 with the table and "Key (environment, order_id)=(…) already exists." */
export function fromPostgresError(error: unknown): unknown {
  const fields = error as { code?: unknown; table?: unknown; detail?: unknown };
  if (fields.code === '23505') {
    const columns = typeof fields.detail === 'string' ? (/^Key \(([^)]*)\)=/.exec(fields.detail)?.[1]?.split(', ') ?? []) : [];
    return conflictError(typeof fields.table === 'string' ? fields.table : 'unknown', columns, error);
  }
  if (isConnectionFailure(error)) return unavailableError(error);
  return error;
}
