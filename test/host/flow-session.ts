/**
 * The small branchy session the host flow tests (navigate, bring conclusions) work on, and the views of an
 * AgentSession those flows take.
 */
import type { AgentSession, AgentSessionOptions } from "../../src/core/agent/agent-session.js";
import type { SessionManager } from "../../src/core/session/session-manager.js";
import type { ConclusionsTarget } from "../../src/host/compare/bring-flow.js";
import type { TreeNavigator } from "../../src/host/tree/navigate-flow.js";
import { newAgent } from "../core/agent/helpers.js";
import { namedSession } from "../util/session-builder.js";

/** u1 → a1 ┬→ u2 → a2 (the other branch) ; a1 → u3 → a3 (leaf). In memory, cwd /tmp. */
export function parserSession(): { sm: SessionManager; ids: Record<string, string> } {
  return namedSession("/tmp", [
    "u1: Build a parser for src/parse.ts",
    "a1: Which grammar?",
    "u2: Try a recursive descent approach",
    "a2: Recursive descent written and fast.",
    "from a1",
    "u3: Use a PEG instead",
    "a3: PEG parser written.",
  ]);
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
