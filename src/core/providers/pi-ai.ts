/**
 * The one way the core reaches `@earendil-works/pi-ai` at run time: `loadPiAi()` imports pi-ai-runtime.mts on first
 * use and keeps it. Type imports of pi-ai are free (erased); value imports go through here, so the extension host
 * activates without reading pi-ai's catalogs or any SDK (docs/models.md, "Lazy loading").
 */
import { errorText } from "../error-text.js";

/** The run-time part of pi-ai the core uses (see pi-ai-runtime.mts). */
export type PiAi = typeof import("./pi-ai-runtime.mjs");

let loading: Promise<PiAi> | undefined;
let loaded: PiAi | undefined;

/**
 * pi-ai, loaded once. In the extension host this imports `dist/pi-ai/runtime.mjs` (esbuild.mjs points the import
 * there); from source (tests, scripts) the module itself. A failed load is not kept, so a later call tries again.
 */
export function loadPiAi(): Promise<PiAi> {
  loading ??= import("./pi-ai-runtime.mjs").then(
    (m) => (loaded = m),
    (e: unknown) => {
      loading = undefined;
      throw new Error(`Could not load the model library (@earendil-works/pi-ai): ${errorText(e)}`, { cause: e });
    },
  );
  return loading;
}

/**
 * pi-ai when it is loaded already (every ModelRegistry has loaded it), for the few synchronous helpers that need it
 * (thinking levels). Throws a clear error before the first load.
 */
export function piAiLoaded(): PiAi {
  if (!loaded)
    throw new Error("The model library is not loaded yet: await loadPiAi() (or ModelRegistry.create()) first");
  return loaded;
}
