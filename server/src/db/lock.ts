import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Another live process holds the data directory; PGlite has no multi-process locking of its own. */
export class DataDirLockedError extends Error {
  constructor(
    public readonly dir: string,
    public readonly pid: number,
  ) {
    super(`The data directory ${dir} is already used by process ${pid}; stop it or set DATA_DIR to another directory.`);
    this.name = 'DataDirLockedError';
  }
}

export interface DirLock {
  readonly file: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // After a crash the pid may have been reused by an unrelated program; where /proc exists, only a node process counts.
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return /node|tsx|bun/i.test(cmdline);
  } catch {
    return true;
  }
}

function readPid(file: string): number | null {
  try {
    const n = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

/**
 * Takes an exclusive lock on `dir` through `<dir>.lock` created with O_EXCL and holding our pid.
 * A lock left by a dead process is reclaimed; a live holder (including this process) is refused.
 */
export function acquireDirLock(dir: string): DirLock {
  const file = `${path.resolve(dir)}.lock`;
  mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          if (readPid(file) === process.pid) {
            try {
              unlinkSync(file);
            } catch {
              /* already gone */
            }
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readPid(file);
      if (holder !== null && isAlive(holder)) throw new DataDirLockedError(path.resolve(dir), holder);
      // Stale (dead pid or unreadable): remove and race for it again; O_EXCL decides the winner.
      try {
        unlinkSync(file);
      } catch {
        /* someone else reclaimed it first */
      }
    }
  }
  const holder = readPid(file) ?? -1;
  throw new DataDirLockedError(path.resolve(dir), holder);
}
