/** `/explore` and `/aside` in the chat: parsed exactly, and routed to the parallel actions instead of the agent. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { routeWebviewMessage, type RouterDeps } from "../../src/host/message-router.js";
import { parseParallelSlash } from "../../src/host/parallel/slash.js";
import type { AgentWebviewView } from "../../src/host/webview-view.js";

test("parses /explore and /aside with their text, and nothing else", () => {
  assert.deepEqual(parseParallelSlash("/aside what is X?"), { command: "aside", arg: "what is X?" });
  assert.deepEqual(parseParallelSlash("  /explore  try\nthree ways "), { command: "explore", arg: "try\nthree ways" });
  assert.deepEqual(parseParallelSlash("/explore"), { command: "explore", arg: "" });
  assert.equal(parseParallelSlash("/explorer x"), undefined);
  assert.equal(parseParallelSlash("please /aside x"), undefined);
  assert.equal(parseParallelSlash("/compact"), undefined);
});

test("the router hands the slash commands to the parallel actions and other text to the agent", async () => {
  const calls: string[] = [];
  const deps = {
    controller: { hasEntry: () => false },
    actions: { submit: async (t: string) => void calls.push(`submit:${t}`) },
    parallel: {
      handleSlash: (t: string) => {
        const hit = parseParallelSlash(t) !== undefined;
        if (hit) calls.push(`parallel:${t}`);
        return hit;
      },
    },
    log: { warn: () => undefined, error: (m: string) => calls.push(`error:${m}`) },
  } as unknown as RouterDeps;
  const view = { kind: "chat" } as unknown as AgentWebviewView;
  await routeWebviewMessage({ type: "chat/submit", text: "/aside why?" }, view, deps);
  await routeWebviewMessage({ type: "chat/submit", text: "hello" }, view, deps);
  assert.deepEqual(calls, ["parallel:/aside why?", "submit:hello"]);
});
