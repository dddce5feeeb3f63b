/**
 * Whether a process of this machine is still running. The app and the CLI share one database, so
 * work left "running" by another process (a print run, an import) is only taken over once that
 * process is gone.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
