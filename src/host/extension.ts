/**
 * Extension entry: builds the services every feature shares (src/host/common/services.ts), then each feature's
 * `createX(services, …)` in the order of what they need, and returns the public API (docs/extension-api.md).
 * Activation is cheap: nothing is read but the secrets' store and, in the background, the workspace's hooks; the
 * session opens when a view loads or a command needs it. docs/architecture.md, "The layout", says who owns what.
 */
import type * as vscode from "vscode";
import { createArchive } from "./archive/create-archive.js";
import { createPlanMode } from "./chat/create-plan-mode.js";
import { createChatInput } from "./chat-input/chat-input-setup.js";
import { createCheckpoints, createCheckpointStore } from "./checkpoints/create-checkpoints.js";
import { registerCommands } from "./commands.js";
import type { AgentTreeApi } from "./common/extension-api.js";
import { createServices, type HostServices } from "./common/services.js";
import { createCompare } from "./compare/create-compare.js";
import { createExport } from "./export/create-export.js";
import { createHooks } from "./hooks/create-hooks.js";
import { createMcp } from "./mcp/create-mcp.js";
import { createModelLibrary, createModels } from "./models/create-models.js";
import { createOperations } from "./operations/create-operations.js";
import { createBranchViews, createParallel } from "./parallel/create-parallel.js";
import { createInstructions, createSystemPrompt } from "./prompt/create-prompt.js";
import { createReview } from "./review/create-review.js";
import { createSearch } from "./search/create-search.js";
import { createSession } from "./session/create-session.js";
import { createApprovals } from "./tools/create-approvals.js";
import { createTree } from "./tree/create-tree.js";
import { createViews } from "./views/create-views.js";

export type { AgentTreeApi, SessionChangeEvent } from "./common/extension-api.js";

/** The services of the running activation, for `deactivate`. */
let services: HostServices | undefined;

/** Activation: see the file comment. */
export async function activate(context: vscode.ExtensionContext): Promise<AgentTreeApi> {
  const s = createServices(context);
  services = s;
  // What the session is built from: none of these needs the session while it is built.
  const hooks = createHooks(s);
  const library = createModelLibrary(s);
  const store = createCheckpointStore(s);
  const mcp = createMcp(s, library);
  const instructions = createInstructions(s);
  const branches = createBranchViews(s);
  const review = createReview(s, store, branches);
  const approvals = createApprovals(s, review.edits, branches);
  const session = createSession(s, { library, store, mcp, instructions, hooks, review, approvals, branches });
  // The features that act on the session (s.controller is set from here on).
  const { opener, ensureSession } = session;
  const files = createCheckpoints(s, store);
  const actions = createTree(s, { opener, files });
  const models = createModels(s, library, session.onModelFailed);
  const search = createSearch(s, opener);
  const { compare, panels } = createCompare(s, files);
  const chatInput = createChatInput(s, { actions, instructions: instructions.loader, opener, models });
  const { parallel, checks } = createParallel(s, {
    branches,
    store,
    files,
    mcp,
    instructions,
    actions,
    panels,
    models,
  });
  createOperations(
    s,
    {
      actions,
      archive: createArchive(s, actions),
      compare,
      files,
      exporter: createExport(s, actions),
      systemPrompt: createSystemPrompt(s),
      parallel,
      checks,
      watch: branches.watch,
      renameSession: (name) => chatInput.renameSession(name),
    },
    ensureSession,
  );
  // The ways in, last: the views (their messages) and the commands.
  createViews(s, { actions, models, chatInput: chatInput.service, watch: branches.watch, review, ensureSession });
  registerCommands(s, {
    review: review.edits,
    opener,
    search,
    models,
    ensureSession,
    chatInput: chatInput.service,
    mcpServers: mcp.ui,
    toolRules: approvals.rulesUi,
    planMode: createPlanMode(s, actions),
  });

  // The workspace's hook files load last, in the background, once everything is wired.
  hooks.load();
  s.log.info(`Activated for ${s.cwd}; sessions in ${opener.sessionDir()}`);
  return {
    hooks: hooks.registry.api,
    onDidChangeSession: session.onDidChangeSession,
    getSessionManager: () => session.controller.sessionManager,
    registerModelProvider: (create) => library.registerProvider(create),
  };
}

/** Flush and release the session file's lock; the MCP servers' processes end with the window (none is left behind). */
export async function deactivate(): Promise<void> {
  const stopping = services?.onDeactivate ?? [];
  services = undefined;
  await Promise.all(stopping.map((stop) => stop()));
}
