/**
 * PostgreSQL ends a transaction that lost a race with another bench's (a deadlock victim, SQLSTATE
 * 40P01; a serialization failure, 40001) by rolling it back whole. Nothing of it was written, so it
 * is run again; the database, not timing, decides the winner. SQLite never raises these.
 */
const lostRaceCodes = new Set(['40P01', '40001']);

export function lostRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && lostRaceCodes.has(code);
}

export async function retryLostRace<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !lostRace(error)) throw error;
    }
  }
}
