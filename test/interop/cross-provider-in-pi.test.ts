/**
 * A session whose model changed mid-conversation across four providers and wires (Anthropic Messages, OpenAI Chat
 * Completions and Responses, Gemini), written through pi-ai: each real pi release opens it and sees what we see —
 * every entry field for field (the replies as pi-ai returned them: signatures, Responses ids, usage), the same
 * leaf and the same context, its model the last one chosen — and continues it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SessionManager } from "../../src/core/session/session-manager.js";
import {
  crossProviderConversation,
  startCrossProviderServers,
  type CrossProviderServers,
} from "../core/agent/cross-provider-session.js";
import { tempDir } from "../util/temp-dir.js";
import { assertSameView, ourView, piContinues, piOpen, releases, timedMessages } from "./pi.js";

describe("a cross-provider session in pi", { timeout: 180_000 }, () => {
  let s: CrossProviderServers;
  let file: string;
  const tmp = tempDir("agent-tree-interop-");
  before(async () => {
    s = await startCrossProviderServers();
    const { sm } = await crossProviderConversation(tmp.dir, s);
    file = sm.getSessionFile() as string;
    // The model of the session is the last one chosen (pi's first release reads it so below, before it appends).
    assert.deepEqual(sm.buildSessionContext().model, { provider: "fake-gemini", modelId: "gemini-fake" });
    await sm.close();
  });
  after(async () => {
    await s.close();
    tmp.cleanup();
  });

  for (const release of releases()) {
    test(`pi ${release.version} reads it as we do and goes on from it`, async () => {
      const ours = await SessionManager.open(file, { readOnly: true });
      try {
        const pi = piOpen(release, file);
        assertSameView(pi, ourView(ours), `pi ${release.version}`);
      } finally {
        await ours.close();
      }
      const { assistant, user } = timedMessages(Date.now(), {
        api: "anthropic-messages",
        provider: "fake-anthropic",
        model: "claude-fake",
      });
      const { snapshot } = piContinues(release, file, [user("pi asks", 1), assistant("pi answers", 2)]);
      const reopened = await SessionManager.open(file, { readOnly: true });
      try {
        assertSameView(snapshot, ourView(reopened), `after pi ${release.version} appended`);
      } finally {
        await reopened.close();
      }
    });
  }
});
