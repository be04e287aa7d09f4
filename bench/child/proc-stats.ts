/** Memory numbers of the current process. */
import { readFileSync } from "node:fs";

/**
 * Peak resident set size so far, in bytes: VmHWM from /proc/self/status (Linux), else the OS's maxRSS.
 * Each measurement runs in a fresh process, so this is the peak of that one run.
 */
export function peakRssBytes(): number {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.resourceUsage().maxRSS * 1024;
}
