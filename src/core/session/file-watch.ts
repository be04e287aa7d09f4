/**
 * Tells when a session file may have changed on disk, so the open session follows what another program (pi in a
 * terminal, which takes no lock) appends to it. Two sources, as neither is enough alone: `fs.watch` answers within
 * milliseconds where the platform reports changes (inotify, FSEvents, ReadDirectoryChangesW), but says nothing on
 * network folders and stops for a file replaced by a rename; `fs.watchFile` polls the path's stat once per
 * interval and sees every change, a second late. Bursts of events become one call. What changed is for the caller
 * to find out (SessionFile.readAppended compares sizes and offsets): a change of our own is found to be nothing.
 * Pure Node: no `vscode` import.
 */
import * as fs from "node:fs";

/** How often the path's stat is polled, in milliseconds (the fallback where `fs.watch` says nothing). */
export const POLL_INTERVAL_MS = 1000;

/** Events closer together than this become one call (an append fires several). */
const SETTLE_MS = 25;

/**
 * Calls `changed` soon after `file` may have changed (appended to, replaced, created), until the returned
 * function is called; it closes every watcher and timer, so nothing keeps the process alive or leaks. A file not
 * there yet (a new session before its first write) is polled until it is, then watched as well.
 */
export function watchFile(file: string, changed: () => void, intervalMs = POLL_INTERVAL_MS): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let watcher: fs.FSWatcher | undefined;

  const settle = (): void => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (!stopped) changed();
    }, SETTLE_MS);
    timer.unref();
  };

  /** fs.watch where it works; a failure (no file yet, no support) leaves the poll alone. */
  const watch = (): void => {
    if (watcher || stopped) return;
    try {
      const w = fs.watch(file, { persistent: false }, settle);
      w.on("error", () => {
        w.close();
        if (watcher === w) watcher = undefined;
      });
      watcher = w;
    } catch {
      watcher = undefined;
    }
  };

  const poll = (now: fs.Stats, before: fs.Stats): void => {
    if (now.size === before.size && now.ino === before.ino && now.mtimeMs === before.mtimeMs) return;
    // A replaced file: the old watcher follows the old inode, so watch the path again.
    if (now.ino !== before.ino) {
      watcher?.close();
      watcher = undefined;
    }
    watch();
    settle();
  };

  watch();
  fs.watchFile(file, { interval: intervalMs, persistent: false }, poll);
  return () => {
    if (stopped) return;
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
    watcher?.close();
    watcher = undefined;
    fs.unwatchFile(file, poll);
  };
}
