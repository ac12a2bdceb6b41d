// Whether a process still runs, for telling leftovers of a killed process (an unfinished evaluation run,
// a temporary model file) from work in progress. Signal 0 checks without sending anything.

export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user. Only ESRCH says it is gone.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
