/**
 * A user message with mentions and images, end to end in the core: composed, sent through the real openai and
 * Anthropic SDKs to the fake servers, stored as pi stores it (`{type:"image", data, mimeType}` user content),
 * and read back. Plus the image checks and which models take images.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import {
  imageProblem,
  acceptsImages,
  MAX_IMAGE_BASE64,
  textOnlyModelMessage,
} from "../../../src/core/mentions/image-attachment.js";
import { composeUserContent } from "../../../src/core/mentions/user-content.js";
import { testModels } from "../../util/test-models.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { anthropicModel, newAgent, openAIModel } from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { fileSession } from "../../util/session-builder.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const FILE_BLOCK = '<file name="/w/notes.txt">\nWOMBAT-552\n</file>';

describe("a user message with attachments and an image", () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("reaches the OpenAI-compatible model as text and image_url parts, and is stored as pi stores it", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    const content = composeUserContent(
      "what is @notes.txt?",
      [FILE_BLOCK],
      [{ type: "image", data: PNG, mimeType: "image/png" }],
    );
    await agent.prompt("what is @notes.txt?", { content: content as Exclude<typeof content, string> });
    const sent = JSON.stringify(fake.requests.at(-1)?.messages);
    assert.ok(sent.includes("WOMBAT-552"), "the file's text reached the model");
    assert.ok(sent.includes(`data:image/png;base64,${PNG}`), "the image reached the model");
    const file = sm.getSessionFile() ?? "";
    await sm.close();
    const stored = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; message?: { role: string; content: unknown } })
      .find((l) => l.type === "message" && l.message?.role === "user");
    assert.deepEqual(stored?.message?.content, [
      { type: "text", text: "what is @notes.txt?" },
      { type: "text", text: FILE_BLOCK },
      { type: "image", data: PNG, mimeType: "image/png" },
    ]);
    const reopened = await SessionManager.open(file, { readOnly: true });
    assert.ok(reopened.getEnvelopes().some((e) => e.role === "user" && e.preview.startsWith("what is @notes.txt?")));
    await reopened.close();
  });
});

describe("an image to an Anthropic model", () => {
  const fake = fakeServerForSuite(startFakeAnthropic);
  const tmp = tempDirPerTest();

  it("is sent as a base64 image block", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: anthropicModel(fake) });
    const content = composeUserContent("see", [], [{ type: "image", data: PNG, mimeType: "image/png" }]);
    await agent.prompt("see", { content: content as Exclude<typeof content, string> });
    const sent = JSON.stringify(fake.requests.at(-1)?.messages);
    assert.ok(sent.includes(`"source":{"type":"base64","media_type":"image/png","data":"${PNG}"}`), sent.slice(0, 500));
    await sm.close();
  });
});

describe("image checks", () => {
  it("refuses other types, oversized data and non-base64", () => {
    assert.equal(imageProblem({ mimeType: "image/png", data: PNG }), undefined);
    assert.match(imageProblem({ mimeType: "image/bmp", data: PNG }) ?? "", /image\/bmp cannot be sent/);
    assert.match(
      imageProblem({ mimeType: "image/png", data: "A".repeat(MAX_IMAGE_BASE64 + 4) }) ?? "",
      /more than the 4\.5 MiB/,
    );
    assert.match(imageProblem({ mimeType: "image/png", data: "not base64!" }) ?? "", /not base64/);
  });

  it("knows which models take images: the catalog says it for built-ins, a custom model its settings", () => {
    const registry = testModels();
    assert.equal(acceptsImages(registry.find("openai", "gpt-4.1") ?? {}), true);
    assert.equal(acceptsImages(registry.find("anthropic", "claude-sonnet-4-5") ?? {}), true);
    const textOnly = registry.find("azure", "gpt-4");
    assert.ok(textOnly, "a text-only model of the catalog");
    assert.equal(acceptsImages(textOnly), false);
    const base = { provider: "local", api: "openai", baseUrl: "http://127.0.0.1:11434/v1" };
    const issues = registry.setCustomModels([
      { ...base, id: "plain" },
      { ...base, id: "llava", input: ["text", "image"] },
      { ...base, id: "bad", input: ["video"] },
    ]);
    assert.deepEqual(
      issues.map((i) => i.message),
      ['Custom model #3: "input" must be a list of "text" and "image"'],
    );
    const plain = registry.find("local", "plain");
    assert.equal(acceptsImages(plain ?? {}), false);
    assert.equal(acceptsImages(registry.find("local", "llava") ?? {}), true);
    assert.equal(
      textOnlyModelMessage({ name: "plain" }, 2),
      'plain takes text only: remove the 2 images or choose a model with image input (a custom model says so with "input": ["text", "image"] in agentTree.models.custom).',
    );
  });
});

describe("the compare tab's view of such a message", () => {
  it("names the attachments, keeps the images, and leaves the file's text out", async () => {
    const { itemsOfEntry } = await import("../../../src/core/compare/items.js");
    const content = composeUserContent(
      "what is @notes.txt?",
      [FILE_BLOCK],
      [{ type: "image", data: PNG, mimeType: "image/png" }],
    );
    const [user] = itemsOfEntry({
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: "",
      message: { role: "user", content, timestamp: 1 },
    });
    assert.equal(user.item.text, "what is @notes.txt?\n[file /w/notes.txt]");
    assert.deepEqual(user.item.images, [{ mimeType: "image/png", data: PNG }]);
    assert.ok(!user.full.includes("WOMBAT"));
  });
});
