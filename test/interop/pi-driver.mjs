/**
 * Runs the real pi's SessionManager in a child process for the interop tests (pi 1.5 needs Node 22, so it cannot
 * be loaded into the test process). Plain JavaScript: it runs under whichever Node the release needs.
 *
 *   <node> pi-driver.mjs <path of pi's dist/core/session-manager.js>    (the steps as JSON on stdin)
 *
 * stdin: an array of steps, run in order on one SessionManager ({op: "open" | "create" | "inMemory" | "forkFrom"}
 * first); a field "$<n>" stands for step n's result. stdout: one JSON array, the result of each step (ids for
 * appends, a snapshot for "snapshot", …). A failing step ends the run with `{error}` as its result, so the test
 * shows pi's message.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const { SessionManager } = await import(pathToFileURL(process.argv[2]).href);
const steps = JSON.parse(readFileSync(0, "utf8"));

/** What the tests compare: the tree in file order, the leaf, the context, every label, the name, the file. */
function snapshot(sm) {
  const entries = sm.getEntries();
  const labels = {};
  for (const e of entries) {
    const label = sm.getLabel(e.id);
    if (label !== undefined) labels[e.id] = label;
  }
  const context = sm.buildSessionContext();
  return {
    file: sm.getSessionFile(),
    sessionId: sm.getSessionId(),
    leafId: sm.getLeafId(),
    entries,
    labels,
    name: sm.getSessionName() ?? null,
    context: { messages: context.messages, thinkingLevel: context.thinkingLevel, model: context.model ?? undefined },
  };
}

let sm;
const results = [];
/** A field "$<n>" stands for the result of step n (an entry id appended earlier in the same run). */
const resolved = (step) =>
  Object.fromEntries(
    Object.entries(step).map(([k, v]) => [
      k,
      typeof v === "string" && /^\$\d+$/.test(v) ? results[Number(v.slice(1))] : v,
    ]),
  );
for (const step of steps) {
  const s = resolved(step);
  try {
    switch (s.op) {
      case "open":
        sm = SessionManager.open(s.file, s.sessionDir);
        results.push(null);
        break;
      case "create":
        sm = SessionManager.create(s.cwd, s.dir, s.id === undefined ? undefined : { id: s.id });
        results.push(sm.getSessionFile());
        break;
      case "forkFrom":
        // pi's static forkFrom(sourcePath, targetCwd, sessionDir): goes on with the fork.
        sm = SessionManager.forkFrom(s.file, s.cwd, s.dir);
        results.push(sm.getSessionFile());
        break;
      case "inMemory":
        sm = SessionManager.inMemory(s.cwd, s.id === undefined ? undefined : { id: s.id });
        results.push(sm.getSessionId());
        break;
      case "message":
        results.push(sm.appendMessage(s.message));
        break;
      case "label":
        results.push(sm.appendLabelChange(s.targetId, s.label));
        break;
      case "compaction":
        results.push(
          sm.appendCompaction(s.summary, s.firstKeptEntryId, s.tokensBefore, s.details, s.fromHook, s.usage),
        );
        break;
      case "custom":
        results.push(sm.appendCustomEntry(s.customType, s.data));
        break;
      case "customMessage":
        results.push(sm.appendCustomMessageEntry(s.customType, s.content, s.display, s.details));
        break;
      case "model":
        results.push(sm.appendModelChange(s.provider, s.modelId));
        break;
      case "sessionName":
        results.push(sm.appendSessionInfo(s.name));
        break;
      case "thinking":
        results.push(sm.appendThinkingLevelChange(s.level));
        break;
      case "contextEdit":
        results.push(sm.appendContextEdit(s.targetId, s.replacement));
        break;
      case "usage":
        results.push(sm.appendUsage(s.kind, s.provider, s.model, s.usage, s.note).id);
        break;
      case "branch":
        sm.branch(s.id);
        results.push(null);
        break;
      case "resetLeaf":
        sm.resetLeaf();
        results.push(null);
        break;
      case "branchWithSummary":
        results.push(sm.branchWithSummary(s.id, s.summary, s.details, s.fromHook, s.usage));
        break;
      case "labelTimes": {
        // Each labelled node's labelTimestamp (pi 1.6's tree nodes carry it).
        const out = {};
        const walk = (nodes) => {
          for (const n of nodes) {
            if (n.label !== undefined) out[n.entry.id] = n.labelTimestamp ?? null;
            walk(n.children);
          }
        };
        walk(sm.getTree());
        results.push(out);
        break;
      }
      case "fork":
        results.push(sm.createBranchedSession(s.leafId) ?? null);
        break;
      case "snapshot":
        results.push(snapshot(sm));
        break;
      case "systemMessage": {
        // pi 1.5+: the prompt pi would run under at its leaf, replayed by pi-ai's own getCurrentSystemMessage.
        const piAi = createRequire(process.argv[2]).resolve("@earendil-works/pi-ai");
        const { getCurrentSystemMessage } = await import(pathToFileURL(piAi).href);
        results.push(getCurrentSystemMessage(sm.buildSessionContext().messages) ?? null);
        break;
      }
      case "llmMessages": {
        // What pi sends the model from its leaf: its own convertToLlm (core/messages.js, beside the session manager).
        const messagesJs = pathToFileURL(join(dirname(process.argv[2]), "messages.js")).href;
        const { convertToLlm } = await import(messagesJs);
        results.push(convertToLlm(sm.buildSessionContext().messages));
        break;
      }
      case "exportJsonl": {
        // pi 1.6's /export <file>.jsonl: its own exportSessionToJsonl (core/session-export.js, beside the manager).
        const exportJs = pathToFileURL(join(dirname(process.argv[2]), "session-export.js")).href;
        const { exportSessionToJsonl } = await import(exportJs);
        results.push(exportSessionToJsonl(sm, s.file));
        break;
      }
      case "list": {
        const list = await SessionManager.list(s.cwd, s.dir);
        results.push(list.map((i) => ({ path: i.path, id: i.id, modified: i.modified.toISOString() })));
        break;
      }
      default:
        throw new Error(`unknown step ${JSON.stringify(s.op)}`);
    }
  } catch (e) {
    results.push({ error: e instanceof Error ? e.message : String(e) });
    break;
  }
}
process.stdout.write(JSON.stringify(results));
