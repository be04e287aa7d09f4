/**
 * The current leaf's SessionContext, kept between model calls. Building it from scratch reads every
 * message body on the path (seconds on a 300 MB session), and the agent needs it before every model
 * call. When the leaf has only moved forward by appends since the last build, the new entries are
 * applied to the cached context; any other move (branch, compaction, reset), and a rewrite of the file (a
 * deleted branch), rebuilds it.
 */
import type { SessionContext } from "../session/types.js";
import type { SessionManager } from "../session/session-manager.js";
import { messageOfEntry } from "../session/context.js";
import { metaOf } from "../session/entry-meta.js";

/** More new entries than this since the last build: rebuilding is as cheap as extending. */
const MAX_EXTEND = 256;

/** Caches buildSessionContext() for one SessionManager. */
export class ContextCache {
  private leafId: string | null = null;
  private context: SessionContext | undefined;

  constructor(private readonly sessionManager: SessionManager) {
    // A deleted branch can take entries off the path while the leaf stays (a summary of it brought here).
    sessionManager.subscribe((change) => {
      if (change.type === "rewrite") this.invalidate();
    });
  }

  /** The context at the current leaf. The returned object and its array are the caller's to change. */
  get(): SessionContext {
    const leaf = this.sessionManager.getLeafId();
    if (!this.context || (leaf !== this.leafId && !this.extendTo(leaf))) {
      this.context = this.sessionManager.buildSessionContext();
      this.leafId = leaf;
    }
    const c = this.context;
    return { ...c, messages: [...c.messages], ...(c.model ? { model: { ...c.model } } : {}) };
  }

  /** Forget the cached context (the next get() rebuilds). */
  invalidate(): void {
    this.context = undefined;
  }

  /** Apply the entries between the cached leaf and `leaf`, if `leaf` descends from it by plain appends. */
  private extendTo(leaf: string | null): boolean {
    const context = this.context;
    if (!context || leaf === null) return false;
    const added: string[] = [];
    let id: string | null = leaf;
    while (id !== null && id !== this.leafId) {
      const envelope = this.sessionManager.getEnvelope(id);
      // A compaction or a context edit changes what came before it; anything unknown is left to a full rebuild.
      if (!envelope || envelope.type === "compaction" || envelope.type === "context_edit" || added.length >= MAX_EXTEND)
        return false;
      added.push(id);
      id = envelope.parentId;
    }
    if (id !== this.leafId) return false;
    const messages = [...context.messages];
    let { thinkingLevel, model } = context;
    for (let i = added.length - 1; i >= 0; i--) {
      const entry = this.sessionManager.getEntry(added[i]);
      if (!entry) return false;
      const meta = metaOf(entry);
      if (entry.type === "thinking_level_change" && meta.thinkingLevel !== undefined)
        thinkingLevel = meta.thinkingLevel;
      if (meta.model) model = { ...meta.model };
      const message = messageOfEntry(entry);
      if (message) messages.push(message);
    }
    this.context = model ? { messages, thinkingLevel, model } : { messages, thinkingLevel };
    this.leafId = leaf;
    return true;
  }
}
