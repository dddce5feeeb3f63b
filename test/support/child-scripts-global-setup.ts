/**
 * Vitest globalSetup of the integration project: the programs its tests start, bundled once for
 * the run (test/support/child-scripts.ts) and removed after it.
 */
import { buildChildScripts } from './child-scripts';

export default async function setup(): Promise<() => void> {
  const scripts = await buildChildScripts();
  return () => scripts.remove();
}
