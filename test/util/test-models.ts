/**
 * Model registries for tests: pi-ai's real registry (its built-in providers and their catalogs) plus providers for
 * the fake servers of test/util, each speaking its wire through pi-ai's real implementation of that API (so the
 * requests go through the official SDKs to 127.0.0.1). A model made by a test for one of these providers carries
 * its fake server's `baseUrl`. pi-ai is loaded once per test file, before its tests (`before` of the file); code
 * in a `before` hook of its own uses `readyTestModels()` (node:test does not run one file's hooks one after another).
 */
import { before } from "node:test";
import { ModelRegistry, type ModelRegistryOptions } from "../../src/core/providers/model-registry.js";
import { loadPiAi, piAiLoaded } from "../../src/core/providers/pi-ai.js";
import { FAKE_CUSTOM_MODELS } from "./fake-models.js";

export * from "./fake-models.js";

before(async () => {
  await loadPiAi();
});

/**
 * A registry with pi-ai's providers and the fake ones (synchronous: pi-ai is loaded by the file's `before`).
 * `custom` entries are added after the fake providers'.
 */
export function testModels(options: ModelRegistryOptions = {}): ModelRegistry {
  return ModelRegistry.fromLoaded(piAiLoaded(), {
    ...options,
    custom: [...FAKE_CUSTOM_MODELS, ...(options.custom ?? [])],
  });
}

/** A registry of exactly pi-ai's providers and `options` (no fake providers), synchronously. */
export function plainModels(options: ModelRegistryOptions = {}): ModelRegistry {
  return ModelRegistry.fromLoaded(piAiLoaded(), options);
}

/** The same, with its readiness snapshot taken. */
export async function readyTestModels(options: ModelRegistryOptions = {}): Promise<ModelRegistry> {
  await loadPiAi();
  const registry = testModels(options);
  await registry.refreshAuth();
  return registry;
}
