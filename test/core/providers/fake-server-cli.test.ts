import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, it } from "node:test";
import OpenAI from "openai";

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
      const res = await client.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: "hi there" }],
        stream: true,
      });
      let text = "";
      for await (const c of res) text += c.choices[0]?.delta?.content ?? "";
      assert.equal(text, "Echo: hi there");
      const origin = new URL(url).origin;
      const q = await fetch(`${origin}/__fake/enqueue`, { method: "POST", body: JSON.stringify({ text: "scripted" }) });
      assert.equal(q.status, 200);
      const res2 = await client.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: "x" }],
        stream: true,
      });
      let text2 = "";
      for await (const c of res2) text2 += c.choices[0]?.delta?.content ?? "";
      assert.equal(text2, "scripted");
      const recorded = (await (await fetch(`${origin}/__fake/requests`)).json()) as unknown[];
      assert.equal(recorded.length, 2);
    } finally {
      child.stdin.end();
      child.kill("SIGTERM");
    }
  });
});
