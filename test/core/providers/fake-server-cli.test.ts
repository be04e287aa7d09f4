import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, it } from "node:test";
import OpenAI from "openai";

/** The text of one streamed chat completion of a user message `content`. */
async function streamedText(client: OpenAI, content: string): Promise<string> {
  const res = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content }], stream: true });
  let text = "";
  for await (const c of res) text += c.choices[0]?.delta?.content ?? "";
  return text;
}

describe("fake-openai-server-cli", () => {
  it("runs in a separate process, prints its URL, lists models, echoes and can be scripted over HTTP", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/util/fake-openai-server-cli.ts", "--exit-on-stdin-close"],
      {
        stdio: ["pipe", "pipe", "inherit"],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const client = new OpenAI({ apiKey: "k", baseURL: url, maxRetries: 0 });
      const models = await client.models.list();
      assert.ok(models.data.length > 0);
      assert.equal(await streamedText(client, "hi there"), "Echo: hi there");
      const origin = new URL(url).origin;
      const q = await fetch(`${origin}/__fake/enqueue`, { method: "POST", body: JSON.stringify({ text: "scripted" }) });
      assert.equal(q.status, 200);
      assert.equal(await streamedText(client, "x"), "scripted");
      const recorded = (await (await fetch(`${origin}/__fake/requests`)).json()) as unknown[];
      assert.equal(recorded.length, 2);
    } finally {
      child.stdin.end();
      child.kill("SIGTERM");
    }
  });
});
