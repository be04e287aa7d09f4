#!/usr/bin/env bash
# The end-to-end suites that also run on the oldest VS Code the extension claims (engines.vscode: code-server in
# e2e-server/, on the project's Node), after the whole suite ran on the newest. They cover what differs between
# VS Code versions and Node versions of the extension host: activation and the API (extension-host), installing
# the .vsix (vsix), `npm start` (start), model calls, tools and the diff review (agent-run), the tree and chat
# views with their menus, pickers and a window reload (agent-ui), and MCP servers (mcp).
#   bash scripts/e2e-oldest.sh                       the suites below (`npm test` runs this; build first)
#   AGENT_TREE_E2E_OLDEST=all bash scripts/e2e-oldest.sh   every suite of test/e2e
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
suites=(
  test/e2e/extension-host.test.ts
  test/e2e/vsix.test.ts
  test/e2e/start.test.ts
  test/e2e/agent-run.test.ts
  test/e2e/agent-ui.test.ts
  test/e2e/mcp.test.ts
)
[[ "${AGENT_TREE_E2E_OLDEST:-}" == "all" ]] && suites=(test/e2e)
# One code-server (about 1.7 GB with Chromium) at a time.
AGENT_TREE_CODE_SERVER=oldest exec bash scripts/run-node-tests.sh --concurrency 1 "${suites[@]}"
