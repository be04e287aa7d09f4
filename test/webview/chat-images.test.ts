/**
 * Images in the chat input, in real Chromium against a fake host: pasted and dropped images show as thumbnails
 * with a remove button, are sent with the message as base64, a large one is scaled down to the 2000 px cap, a
 * text-only model refuses them before sending (text and images kept), and a sent message shows its images.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ModelDto, WebviewToHost } from "../../src/shared/protocol.js";
import { chatSnapshot, msg, openChatView } from "./chat-fixtures.js";
import { settle, webviewRig, withPage, type ViewPage } from "./harness.js";

const rig = webviewRig();
const VISION: ModelDto = { key: "fake/vision", name: "Vision", provider: "fake", contextWindow: 200000, images: true };
const TEXT_ONLY: ModelDto = { key: "fake/text", name: "Plain Text", provider: "fake", contextWindow: 200000 };

const openChat = (model: ModelDto): Promise<ViewPage> => openChatView(rig, chatSnapshot([], { model }));

/** Paste (or drop) a PNG of the given size drawn in the page. */
async function putImage(vp: ViewPage, width: number, height: number, how: "paste" | "drop"): Promise<void> {
  await vp.page.evaluate(
    async ({ width, height, how }) => {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const g = canvas.getContext("2d");
      if (g) {
        g.fillStyle = "#c33";
        g.fillRect(0, 0, width, height);
      }
      const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, "image/png"));
      if (!blob) throw new Error("no blob");
      const data = new DataTransfer();
      data.items.add(new File([blob], `shot-${width}.png`, { type: "image/png" }));
      const box = document.querySelector("textarea");
      if (how === "paste")
        box?.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
      else box?.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    { width, height, how },
  );
}

/** Width and height of a sent image, decoded in the page (its CSP lets images, not fetches, read data: URLs). */
async function imageSize(vp: ViewPage, img: { mimeType: string; data: string }): Promise<number[]> {
  return vp.page.evaluate(async ({ mimeType, data }) => {
    const el = new Image();
    el.src = `data:${mimeType};base64,${data}`;
    await el.decode();
    return [el.naturalWidth, el.naturalHeight];
  }, img);
}

type Submit = Extract<WebviewToHost, { type: "chat/submit" }>;

test("pasted and dropped images show as thumbnails, can be removed, and are sent as base64", () =>
  withPage(openChat(VISION), async (vp) => {
    await putImage(vp, 40, 30, "paste");
    await putImage(vp, 20, 20, "drop");
    const thumbs = vp.page.locator('[aria-label="Images to send"] img');
    await thumbs.nth(1).waitFor();
    assert.equal(await thumbs.count(), 2);
    await vp.page.getByRole("button", { name: "Remove image 1" }).click();
    assert.equal(await thumbs.count(), 1);
    const box = vp.page.locator("textarea");
    await box.fill("what is this?");
    await box.press("Enter");
    const submit = (await vp.posted()).find((m): m is Submit => m.type === "chat/submit");
    assert.equal(submit?.text, "what is this?");
    assert.equal(submit?.images?.length, 1);
    assert.equal(submit?.images?.[0].mimeType, "image/png");
    const size = await imageSize(vp, submit?.images?.[0] ?? { mimeType: "", data: "" });
    assert.deepEqual(size, [20, 20], "the dropped image was sent, the removed one not");
    assert.equal(await thumbs.count(), 0, "sent images leave the input");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));

test("an image over 2000 px is scaled down to fit", () =>
  withPage(openChat(VISION), async (vp) => {
    await putImage(vp, 3000, 600, "paste");
    await vp.page.locator('[aria-label="Images to send"] img').waitFor();
    await vp.page.locator("textarea").fill("wide");
    await vp.page.locator("textarea").press("Enter");
    const submit = (await vp.posted()).find((m): m is Submit => m.type === "chat/submit");
    const size = await imageSize(vp, submit?.images?.[0] ?? { mimeType: "", data: "" });
    assert.deepEqual(size, [2000, 400]);
  }));

test("a text-only model refuses images before sending; text and images stay", () =>
  withPage(openChat(TEXT_ONLY), async (vp) => {
    await putImage(vp, 10, 10, "paste");
    await vp.page.locator('[aria-label="Images to send"] img').waitFor();
    const box = vp.page.locator("textarea");
    await box.fill("describe");
    await box.press("Enter");
    const notice = vp.page.getByRole("alert").filter({ hasText: "takes text only" });
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? "", /Plain Text takes text only: remove the image or choose a model/);
    assert.ok(!(await vp.posted()).some((m) => m.type === "chat/submit"), "nothing was sent");
    assert.equal(await box.inputValue(), "describe");
    assert.equal(await vp.page.locator('[aria-label="Images to send"] img').count(), 1);
  }));

test("a sent message shows its images", () =>
  withPage(openChat(VISION), async (vp) => {
    const data = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    await vp.send({
      type: "chat/message",
      message: msg("u1", "user", "look", {
        images: [{ mimeType: "image/png", data }],
        attachments: [
          { kind: "image", name: "image/png" },
          { kind: "file", name: "/w/a.ts" },
        ],
      }),
    });
    await settle(vp.page);
    const img = vp.page.locator('[data-message-id="u1"] [aria-label="Images"] img');
    assert.equal(await img.count(), 1);
    assert.equal(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth), 1);
    assert.equal(await vp.page.locator('[data-message-id="u1"] .attachment-chip').textContent(), " a.ts");
  }));
