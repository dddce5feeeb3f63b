/**
 * Vitest globalSetup of the integration project: one private PostgreSQL server for the whole run
 * (test/support/postgres-server.ts), stopped and removed after it. Test files reach it through
 * `inject('postgres')` and make a database of their own with createTestDatabase.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresServer, type PostgresServerInfo } from './postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresServerInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  project.provide('postgres', server.info);
  return () => server.dispose();
}
