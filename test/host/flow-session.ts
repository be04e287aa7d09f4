/**
 * The small branchy session the host flow tests (navigate, bring conclusions) work on, and the views of an
 * AgentSession those flows take.
 */
import type { AgentSession, AgentSessionOptions } from "../../src/core/agent/agent-session.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import type { ConclusionsTarget } from "../../src/host/compare/bring-flow.js";
import type { TreeNavigator } from "../../src/host/tree/navigate-flow.js";
import { newAgent } from "../core/agent/helpers.js";
import { assistant, user } from "../util/session-builder.js";

/** u1 → a1 ┬→ u2 → a2 (the other branch) ; a1 → u3 → a3 (leaf). In memory, cwd /tmp. */
export function parserSession(): { sm: SessionManager; ids: Record<string, string> } {
  const sm = SessionManager.inMemory("/tmp");
  const ids: Record<string, string> = {};
  ids.u1 = sm.appendMessage(user("Build a parser for src/parse.ts"));
  ids.a1 = sm.appendMessage(assistant("Which grammar?"));
  ids.u2 = sm.appendMessage(user("Try a recursive descent approach"));
  ids.a2 = sm.appendMessage(assistant("Recursive descent written and fast."));
  sm.branch(ids.a1);
  ids.u3 = sm.appendMessage(user("Use a PEG instead"));
  ids.a3 = sm.appendMessage(assistant("PEG parser written."));
  return { sm, ids };
}

/** The parser session with an AgentSession over it (`opts.model`: summaries from it, else extractive). */
export function parserAgent(opts: Partial<AgentSessionOptions> = {}): {
  sm: SessionManager;
  ids: Record<string, string>;
  agent: AgentSession;
} {
  const { sm, ids } = parserSession();
  return { sm, ids, agent: newAgent(sm, opts).agent };
}

/** What the navigate flow moves: the session's leaf through the agent. */
export function navigatorOf(sm: SessionManager, agent: AgentSession): TreeNavigator {
  return { getLeafId: () => sm.getLeafId(), navigateTree: agent.navigateTree.bind(agent) };
}

/** What Bring Conclusions Here works on: the session's branches through the agent. */
export function conclusionsTargetOf(sm: SessionManager, agent: AgentSession): ConclusionsTarget {
  const commonAncestor = (id: string): string | null => {
    const leaf = sm.getLeafId();
    return leaf === null ? null : sm.findCommonAncestor(leaf, id);
  };
  return {
    isOnCurrentBranch: (id) => commonAncestor(id) === id,
    commonAncestor,
    bringConclusions: agent.bringConclusions.bind(agent),
  };
}
