/**
 * Child process of the activation figures: the first model use of the extension's build as the host does it — the
 * model library loaded (`loadPiAi()` imports dist/pi-ai/runtime.mjs, bundled next to this file) and the registry
 * built with its readiness snapshot — then two requests to a fake OpenAI-compatible server on 127.0.0.1: the first
 * loads the `openai` SDK's chunk, the second finds it loaded. Prints the times as JSON.
 * argv: <fake server base URL>
 */
import { performance } from "node:perf_hooks";
import { ModelRegistry } from "../../src/core/providers/model-registry.js";

async function request(registry: ModelRegistry, baseUrl: string): Promise<number> {
  const model = registry.find("bench", "fake-model");
  if (!model) throw new Error("the custom model is missing");
  const t0 = performance.now();
  const reply = await registry.complete({
    model,
    messages: [{ role: "user", content: "hello", timestamp: Date.now() }],
    maxRetries: 0,
  });
  if (reply.stopReason !== "stop") throw new Error(`the request to ${baseUrl} failed: ${reply.errorMessage}`);
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const baseUrl = process.argv[2];
  const t0 = performance.now();
  const registry = await ModelRegistry.create({
    custom: [{ provider: "bench", id: "fake-model", baseUrl, api: "openai-completions", noApiKey: true }],
  });
  const loadMs = performance.now() - t0;
  const firstRequestMs = await request(registry, baseUrl);
  const secondRequestMs = await request(registry, baseUrl);
  process.stdout.write(
    `${JSON.stringify({ loadMs, firstRequestMs, secondRequestMs, models: registry.all().length, providers: registry.providers().length })}\n`,
  );
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
