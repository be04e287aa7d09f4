/**
 * The tree snapshot the host would post for a session, made the way the host makes it: our store's
 * envelopes turned into columns by src/core/rows/row-columns.ts, then serialised the way VS Code's webview
 * `postMessage` serialises a message (JSON, with typed arrays lifted out as binary buffers).
 */
import { performance } from "node:perf_hooks";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { encodeEnvelopes } from "../../src/core/rows/row-columns.js";
import type { HostToWebview } from "../../src/shared/protocol.js";

/** The snapshot message, and what it cost the host to make. */
export interface HostSnapshot {
  message: HostToWebview & { type: "tree/snapshot" };
  /** Envelopes → columns → serialised message, in this process (ms). */
  hostMs: number;
  /** Of which envelopes → columns (ms). */
  encodeMs: number;
  /** What the message is posted as: its JSON's characters and its binary buffers' bytes. */
  posted: PostedSize;
}

/** The size of a message as VS Code posts it. */
export interface PostedSize {
  jsonChars: number;
  /** Whether the JSON holds a character above U+00FF (V8 then keeps it as a two-byte string). */
  jsonTwoByte: boolean;
  buffers: number;
  bufferBytes: number;
}

/**
 * Serialise `message` as VS Code's extension host does for a webview's postMessage when the extension's
 * engines.vscode is ≥ 1.57 (`serializeWebviewMessage` in src/vs/workbench/api/common/extHostWebviewMessaging.ts):
 * JSON.stringify with a replacer that swaps every ArrayBuffer and typed array for a reference and collects the
 * underlying buffers (each once; a view sends its whole buffer).
 */
export function serialiseLikeVsCode(message: unknown): { json: string; buffers: ArrayBufferLike[] } {
  const buffers: ArrayBufferLike[] = [];
  const add = (b: ArrayBufferLike): number => {
    const at = buffers.indexOf(b);
    return at >= 0 ? at : buffers.push(b) - 1;
  };
  const json = JSON.stringify(message, (_key, value: unknown) => {
    if (value instanceof ArrayBuffer) return { $$vscode_array_buffer_reference$$: true, index: add(value) };
    if (ArrayBuffer.isView(value))
      return {
        $$vscode_array_buffer_reference$$: true,
        index: add(value.buffer),
        view: { type: value.constructor.name, byteLength: value.byteLength, byteOffset: value.byteOffset },
      };
    return value;
  });
  return { json, buffers };
}

/** The posted size of a serialised message. */
export function postedSize(s: { json: string; buffers: ArrayBufferLike[] }): PostedSize {
  return {
    jsonChars: s.json.length,
    // eslint-disable-next-line no-control-regex -- a range of code points, not control characters
    jsonTwoByte: /[^\u0000-\u00ff]/.test(s.json),
    buffers: s.buffers.length,
    bufferBytes: s.buffers.reduce((n, b) => n + b.byteLength, 0),
  };
}

/** Opens `file` read-only and builds its `tree/snapshot` message. */
export async function buildSnapshot(file: string): Promise<HostSnapshot> {
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    const start = performance.now();
    const leafId = sm.getLeafId();
    const rows = encodeEnvelopes(sm.getEnvelopes(), (id) => sm.getLabel(id));
    const encoded = performance.now();
    const message: HostToWebview & { type: "tree/snapshot" } = {
      type: "tree/snapshot",
      sessionId: sm.getSessionId(),
      sessionFile: file,
      readOnly: true,
      rows,
      leafId,
    };
    // The host's postMessage serialises the message; count that too.
    const serialised = serialiseLikeVsCode(message);
    const hostMs = performance.now() - start;
    return { message, hostMs, encodeMs: encoded - start, posted: postedSize(serialised) };
  } finally {
    await sm.close();
  }
}
