#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, generates the demo workspace (a branched sample session),
# starts a local fake OpenAI-compatible model server and a real VS Code (code-server) on 127.0.0.1 with the
# extension loaded, and prints the URL. Ctrl+C stops everything.
#   AGENT_TREE_DEMO_DIR   where the demo lives (default ~/.cache/agent-tree-demo)
#   PORT                  code-server port (default 8080, or a free one if taken)
#   AGENT_TREE_DEMO_RESET=1  regenerate the sample session even if the demo already has sessions
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh --start
echo "[start] building"
node esbuild.mjs
exec node --import tsx scripts/start.ts "$@"
