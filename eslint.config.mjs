import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * `no-restricted-imports` options for the files of `layer`: no relative import may reach into `forbidden` (folders
 * under src/, or `src/host` from the webview), and none but the host's may import `vscode`.
 */
function layerRule(layer, forbidden, { allowVscode = false } = {}) {
  const folders = forbidden.map((f) => f.replace(/^src\//, "(src/)?")).join("|");
  return {
    paths: allowVscode ? [] : [{ name: "vscode", message: `${layer} must not depend on VS Code.` }],
    patterns: [
      { regex: `^(\\.\\.?/)+(${folders})/`, message: `${layer} must not import from ${forbidden.join(", ")}.` },
    ],
  };
}

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "out/**",
      "node_modules/**",
      "e2e-server/**",
      "e2e-server-newest/**",
      ".e2e/**",
      "bench/.data/**",
      "tools/pi/.cache/**",
      "docs/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Layers (README, "Development"): the core (src/core) knows no editor and no view; shared (src/shared, the
  // host ↔ webview protocol) builds on the core only; the host builds on both; the webviews build on shared and on
  // the core's pure modules (tsconfig.webview.json has no Node types, so a core module that needs Node fails
  // there), never on the host.
  {
    files: ["src/core/**/*.ts", "src/core/**/*.mts"],
    rules: { "no-restricted-imports": ["error", layerRule("src/core", ["host", "webview", "shared"])] },
  },
  {
    files: ["src/shared/**/*.ts"],
    rules: { "no-restricted-imports": ["error", layerRule("src/shared", ["host", "webview"])] },
  },
  {
    files: ["src/host/**/*.ts"],
    rules: { "no-restricted-imports": ["error", layerRule("src/host", ["webview"], { allowVscode: true })] },
  },
  {
    files: ["webview/**/*.ts", "webview/**/*.tsx"],
    rules: { "no-restricted-imports": ["error", layerRule("webview", ["src/host"])] },
  },
  {
    files: ["**/*.mjs", "**/*.cjs", "scripts/**/*.js"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        require: "readonly",
        module: "writable",
        __dirname: "readonly",
      },
    },
  },
);
