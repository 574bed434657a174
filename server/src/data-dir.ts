import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** New files and directories of the process are private: the embedded database holds password hashes. */
export const PRIVATE_UMASK = 0o077;

/**
 * Makes an existing data directory private: directories 0700, files 0600. Returns how many entries were looser, so
 * start-up can say it tightened them. Symbolic links are left alone (their targets are not ours to change).
 */
export async function tightenPermissions(dir: string): Promise<number> {
  let changed = 0;
  const visit = async (p: string): Promise<void> => {
    let info;
    try {
      info = await lstat(p);
    } catch {
      return;
    }
    if (info.isSymbolicLink()) return;
    const wanted = info.isDirectory() ? 0o700 : 0o600;
    if ((info.mode & 0o777) !== wanted && (info.mode & 0o077) !== 0) {
      await chmod(p, wanted);
      changed++;
    }
    if (info.isDirectory()) for (const name of await readdir(p)) await visit(path.join(p, name));
  };
  await visit(dir);
  return changed;
}
