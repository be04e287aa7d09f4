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
  // One way in (docs/architecture.md): what acts on the session runs through the operations table, so only the ways
  // in — the wiring, the commands, the webview router and the chat's slash commands — import it. An action imports
  // nothing of it (Notify, the guard texts and the files lock are src/host/common's), so none can call back into it.
  // The services carry the table's accessor for the ways in (test/host/one-way.test.ts: who reads it).
  {
    files: ["src/host/**/*.ts"],
    ignores: [
      "src/host/operations/**",
      "src/host/extension.ts",
      "src/host/common/services.ts",
      "src/host/commands.ts",
      "src/host/views/message-router.ts",
      "src/host/chat-input/chat-input-setup.ts",
      "src/host/chat-input/slash-commands.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          ...layerRule("src/host", ["webview"], { allowVscode: true }),
          patterns: [
            ...layerRule("src/host", ["webview"], { allowVscode: true }).patterns,
            {
              regex: "^(\\.\\.?/)+(host/)?operations/",
              message:
                "Only the ways in (extension.ts and the services, commands.ts, message-router.ts, the chat's slash commands) import the operations table; an action reports through src/host/common.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["webview/**/*.ts", "webview/**/*.tsx"],
    rules: { "no-restricted-imports": ["error", layerRule("webview", ["src/host"])] },
  },
  // Errors become text one way (src/core/error-text.ts): an inline conversion here would word a thrown value its
  // own way (String(err) says "Error: …", `(e as Error).message` throws on a thrown string).
  {
    files: ["src/**/*.ts", "src/**/*.mts", "webview/**/*.ts", "webview/**/*.tsx"],
    ignores: ["src/core/error-text.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "ConditionalExpression[test.operator='instanceof'][test.right.name='Error'][consequent.type='MemberExpression']",
          message: "Use errorText(e) / errorDetail(e) from src/core/error-text.ts, the one error-to-text.",
        },
        {
          selector:
            "ConditionalExpression[test.operator='instanceof'][test.right.name='Error'][alternate.type='NewExpression']",
          message: "Use toError(e) from src/core/error-text.ts.",
        },
        {
          selector:
            "MemberExpression[property.name=/^(message|stack)$/][object.type='TSAsExpression'][object.typeAnnotation.typeName.name='Error']",
          message: "Use errorText(e) from src/core/error-text.ts: a thrown value need not be an Error.",
        },
        {
          selector: "CallExpression[callee.name='String'][arguments.0.name=/^(e|err|error|cause)$/]",
          message: "Use errorText(e) from src/core/error-text.ts, the one error-to-text.",
        },
      ],
    },
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
