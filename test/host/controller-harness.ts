/** Builds a SessionController over a real SessionManager for host tests, recording every post. */
import type { AgentCheckpointHook } from "../../src/core/checkpoints/index.js";
import { plainModels } from "../util/test-models.js";
import type { ThinkingLevel } from "../../src/core/providers/types.js";
import type { SessionManager } from "../../src/core/session/session-manager.js";
import type { DiskRefresh } from "../../src/core/session/types.js";
import type { AgentTool, AgentToolSource } from "../../src/core/tools/types.js";
import { HookRegistry } from "../../src/host/hooks/hook-registry.js";
import { SessionController, type ModelFailure } from "../../src/host/session/session-controller.js";
import type { AutoApprove } from "../../src/host/tools/tool-approval.js";
import type { HostToWebview } from "../../src/shared/protocol.js";

/** Options of the harness. */
export interface HarnessOptions {
  /** Base URL of a fake OpenAI server: registers model "fake/m" (no key needed). */
  fakeBaseURL?: string;
  /** "fake/m" thinks (reasoning, and xhigh too with "xhigh"). */
  reasoning?: boolean | "xhigh";
  autoApprove?: AutoApprove;
  /** Tools the agent offers (default none). */
  tools?: AgentTool[];
  /** The agents' checkpoint hook (default none). */
  checkpoints?: AgentCheckpointHook;
  /** Tools that come and go (MCP servers). */
  toolSource?: AgentToolSource;
  /** Whether the tree shows archived branches (the host's choice; default hidden). */
  showArchived?(): boolean;
  /** pi's default thinking level (settings.json), for new sessions. */
  defaultThinkingLevel?: ThinkingLevel;
  /** The model library is loaded once this settles (default: at once). */
  modelsLoaded?: Promise<unknown>;
}

/** A controller plus what it posted. */
export interface Harness {
  controller: SessionController;
  hooks: HookRegistry;
  tree: HostToWebview[];
  chat: HostToWebview[];
  asked: string[];
  changed: SessionManager[];
  /** Which views are loaded (both, unless a test says otherwise). */
  ready: { tree: boolean; chat: boolean };
  /** Sessions whose writer lock was taken over, with the new holder's pid. */
  lockLost: { sm: SessionManager; pid: number | undefined }[];
  /** Model calls that failed, as the controller reported them (ControllerDeps.onModelFailed). */
  modelFailures: ModelFailure[];
  /** What the controller reported through ControllerDeps.onError. */
  errors: string[];
  /** What another program appended, as the controller passed it on (ControllerDeps.onAppendedByOther). */
  appended: DiskRefresh[];
}

/** Create a controller whose posts land in arrays. */
export function createHarness(opts: HarnessOptions = {}): Harness {
  // pi-ai's built-in providers (none has a key here) and, with a fake server, one keyless model on it.
  const registry = plainModels({
    env: {},
    custom: opts.fakeBaseURL
      ? [
          {
            provider: "fake",
            id: "m",
            baseUrl: opts.fakeBaseURL,
            api: "openai-completions",
            noApiKey: true,
            contextWindow: 32000,
            ...(opts.reasoning ? { reasoning: true } : {}),
            ...(opts.reasoning === "xhigh" ? { supportsXhigh: true } : {}),
          },
        ]
      : [],
  });
  const ready = registry.refreshAuth();
  const hooks = new HookRegistry();
  const h: Harness = {
    controller: undefined as unknown as SessionController,
    hooks,
    tree: [],
    chat: [],
    asked: [],
    changed: [],
    ready: { tree: true, chat: true },
    lockLost: [],
    modelFailures: [],
    errors: [],
    appended: [],
  };
  h.controller = new SessionController({
    cwd: process.cwd(),
    models: async () => {
      await opts.modelsLoaded;
      await ready;
      return registry;
    },
    hookRegistry: hooks,
    autoApprove: () => opts.autoApprove ?? false,
    defaultModelKey: () => "",
    postTree: (m) => h.tree.push(m),
    postChat: (m) => h.chat.push(m),
    isViewReady: (view) => h.ready[view],
    approvalUi: { ask: (r) => h.asked.push(r.toolCallId), done: () => undefined },
    onStreaming: () => undefined,
    onSessionChanged: (sm) => h.changed.push(sm),
    onLockLost: (sm, holder) => h.lockLost.push({ sm, pid: holder?.pid }),
    onModelFailed: (failure) => h.modelFailures.push(failure),
    onError: (message) => h.errors.push(message),
    onAppendedByOther: (_sm, refresh) => h.appended.push(refresh),
    tools: opts.tools ?? [],
    ...(opts.checkpoints ? { checkpoints: opts.checkpoints } : {}),
    ...(opts.toolSource ? { toolSource: opts.toolSource } : {}),
    ...(opts.showArchived ? { showArchived: opts.showArchived } : {}),
    ...(opts.defaultThinkingLevel ? { defaultThinkingLevel: () => opts.defaultThinkingLevel } : {}),
  });
  return h;
}

/** Wait for queued microtasks (the tree sync coalesces per tick). */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The posts of one type. */
export function ofType<T extends HostToWebview["type"]>(
  posts: readonly HostToWebview[],
  type: T,
): Extract<HostToWebview, { type: T }>[] {
  return posts.filter((p): p is Extract<HostToWebview, { type: T }> => p.type === type);
}
