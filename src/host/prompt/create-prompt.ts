/**
 * The agent's instructions (docs/system-prompt.md), in two steps: AGENTS.md & co. and the skills, which the session
 * needs to be built (watched; what was skipped is said in the chat once), and the documents of Show System Prompt.
 */
import type { HostServices } from "../common/services.js";
import { InstructionsService } from "./instructions-service.js";
import { SystemPromptDocuments } from "./system-prompt-document.js";

/** The workspace's instruction files and skills. */
export function createInstructions(s: HostServices): InstructionsService {
  const instructions = new InstructionsService(s.cwd, {
    chat: (text, kind) => s.views.chat.post({ type: "status", text, kind }),
    log: (text, kind) => (kind === "warning" ? s.log.warn(text) : s.log.info(text)),
  });
  s.subscribe(instructions);
  return instructions;
}

/** Show System Prompt's read-only documents. */
export function createSystemPrompt(s: HostServices): SystemPromptDocuments {
  const documents = new SystemPromptDocuments(s.controller.get());
  s.subscribe(documents.register());
  return documents;
}
