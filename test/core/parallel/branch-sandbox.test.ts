/**
 * A branch's `bash` is what the approval says (docs/parallel.md, "The sandbox"): Explore in Parallel with the
 * sandbox the machine has (real bwrap) runs each branch's commands with its copy writable and the real workspace
 * not there, so a command writing the workspace file by its absolute path changes nothing, and one reaching a
 * server on 127.0.0.1 gets no connection. Skipped with the reason where bwrap does not work here.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, it } from "node:test";
import type { FakeReply, FakeRequestBody } from "../../util/fake-provider-common.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { read, tempWorkspacePerTest } from "../checkpoints/helpers.js";
import { exploreFromTurn, sessionWithTurn, sandboxOr } from "./helpers.js";

const fake = fakeServerForSuite();
const t = tempWorkspacePerTest();

/** The first request of a branch runs `command` with bash; the next one answers. */
function bashReplies(command: string): (body: FakeRequestBody) => FakeReply {
  return (body) => {
    const last = (body.messages as { role?: string; content?: unknown }[]).at(-1);
    if (last?.role === "tool") return { text: `Ran: ${String(last.content).slice(0, 400)}` };
    if (JSON.stringify(last?.content ?? "").includes("SANDBOX"))
      return { text: "Running it.", toolCalls: [{ name: "bash", args: { command } }] };
    return { text: "plain" };
  };
}

/** The tool results of the branches, as the model got them. */
function toolResults(): string {
  return fake.requests
    .flatMap((b) => (b.messages as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool"))
    .map((m) => String(m.content))
    .join("\n");
}

describe("a branch's bash in the sandbox", { timeout: 120_000 }, () => {
  it("writing the real workspace by its absolute path changes nothing; its copy gets what it writes there", async (tc) => {
    const sandbox = await sandboxOr(tc);
    if (!sandbox) return;
    const setup = await sessionWithTurn(fake, t.root, t.ws, t.store);
    const target = path.join(t.ws, "app.txt");
    fake.setDefault(
      bashReplies(
        `echo pwned > ${target}; echo "workspace: $?"; rm -f ${path.join(t.ws, "lib", "util.txt")}; ` +
          `cat ${target} || echo "cannot read it"; echo mine > mine.txt`,
      ),
    );
    const exploration = await exploreFromTurn(fake, t, setup, {
      count: 2,
      prompt: "SANDBOX: try it",
      tools: { sandbox: { ...sandbox, network: false } },
    });
    const outcomes = await exploration.done;
    assert.deepEqual(
      outcomes.map((o) => o.state),
      ["done", "done"],
      JSON.stringify(outcomes.map((o) => o.error)),
    );
    assert.equal(read(t.ws, "app.txt"), "original\n", "the workspace file is untouched");
    assert.equal(read(t.ws, "lib/util.txt"), "util\n");
    const results = toolResults();
    assert.match(results, /workspace: [1-9]/);
    assert.match(results, /cannot read it/);
    assert.ok(!results.includes("original"), "the workspace's content is not readable either");
    for (const b of exploration.branches) {
      assert.equal(fs.readFileSync(path.join(b.copy.dir, "mine.txt"), "utf8"), "mine\n", "it ran in its copy");
      assert.equal(fs.readFileSync(path.join(b.copy.dir, "app.txt"), "utf8"), "original\n");
    }
    await setup.sm.close();
  });

  it("has no network by default: a server on 127.0.0.1 gets no connection", async (tc) => {
    const sandbox = await sandboxOr(tc);
    if (!sandbox) return;
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end("reached\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const setup = await sessionWithTurn(fake, t.root, t.ws, t.store);
      fake.setDefault(
        bashReplies(`exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`),
      );
      const exploration = await exploreFromTurn(fake, t, setup, {
        count: 2,
        prompt: "SANDBOX: fetch it",
        tools: { sandbox: { ...sandbox, network: false } },
      });
      await exploration.done;
      assert.equal(hits, 0, "no branch reached the server");
      assert.ok(!toolResults().includes("reached"));
      await setup.sm.close();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
