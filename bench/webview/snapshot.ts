/**
 * The tree snapshot the host would post for a session, made the way the host makes it: our store's
 * envelopes turned into columns by src/core/rows/row-columns.ts.
 */
import { performance } from "node:perf_hooks";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { encodeEnvelopes } from "../../src/core/rows/row-columns.js";
import type { HostToWebview } from "../../src/shared/protocol.js";

/** The snapshot message, and what it cost the host to make (ms; envelopes → columns → JSON, in this process). */
export interface HostSnapshot {
  message: HostToWebview & { type: "tree/snapshot" };
  hostMs: number;
}

/** Opens `file` read-only and builds its `tree/snapshot` message. */
export async function buildSnapshot(file: string): Promise<HostSnapshot> {
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    const start = performance.now();
    const leafId = sm.getLeafId();
    const rows = encodeEnvelopes(sm.getEnvelopes(), (id) => sm.getLabel(id));
    const message: HostToWebview & { type: "tree/snapshot" } = {
      type: "tree/snapshot",
      sessionId: sm.getSessionId(),
      sessionFile: file,
      readOnly: true,
      rows,
      leafId,
    };
    // The host's postMessage serialises the message; count that too.
    JSON.stringify(message);
    return { message, hostMs: performance.now() - start };
  } finally {
    await sm.close();
  }
}
