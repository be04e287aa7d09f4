/**
 * The tree snapshot the host would post for a session, made the way the host makes it: our store's
 * envelopes turned into rows by src/host/tree-dto.ts.
 */
import { performance } from "node:perf_hooks";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { buildTreeNodes } from "../../src/host/tree-dto.js";
import type { HostToWebview } from "../../src/shared/protocol.js";

/** The snapshot message, and what it cost the host to make (ms; envelopes → rows → JSON, in this process). */
export interface HostSnapshot {
  message: HostToWebview & { type: "tree/snapshot" };
  hostMs: number;
}

/** Opens `file` read-only and builds its `tree/snapshot` message. */
export async function buildSnapshot(file: string): Promise<HostSnapshot> {
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    const start = performance.now();
    const nodes = buildTreeNodes(sm.getEnvelopes(), (id) => sm.getLabel(id));
    const message: HostToWebview & { type: "tree/snapshot" } = {
      type: "tree/snapshot",
      sessionId: sm.getSessionId(),
      sessionFile: file,
      readOnly: true,
      nodes,
      leafId: sm.getLeafId(),
    };
    // The host's postMessage serialises the message; count that too.
    JSON.stringify(message);
    return { message, hostMs: performance.now() - start };
  } finally {
    await sm.close();
  }
}
