#!/usr/bin/env bash
# `npm test`: every check the project has, in the order a failure is cheapest to find.
#   1. prerequisites (scripts/ensure-deps.sh: node_modules, Chromium, code-server) — fails fast if missing
#   2. lint (eslint + prettier --check)   3. typecheck (the three tsconfigs)   4. build (extension, webview, tests)
#   5. unit tests (test/core, test/host)   6. interop tests (test/interop: the real pi 0.73.1 and 1.6.0)
#   7. webview tests (test/webview)
#   8. end-to-end tests in a real VS Code (code-server + Chromium, incl. the extension-host suite): a subset on the
#      oldest VS Code the extension claims (scripts/e2e-oldest.sh), then all of test/e2e on the newest
# Every stage runs even if an earlier one failed, so one run shows every problem; the exit code is non-zero
# if any stage failed. Failed stages are listed before the last stage, so that the output ends with the
# node test runner's summary of the last stage.
#
#   AGENT_TREE_SKIP_E2E=1 npm test     skip stage 8 (e.g. a machine without Chromium)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

banner() { printf '\n===== %s =====\n' "$*"; }
failed=()
# stage NAME CMD...: runs CMD, records a failure. The last stage prints nothing after its own output, so
# that the log ends with the node test runner's summary (CI reads it).
stage() {
  local name="$1"
  shift
  banner "$name"
  local started=$SECONDS
  if "$@"; then
    [[ "${LAST_STAGE:-}" == "1" ]] || printf '[test] %s passed (%d s)\n' "$name" $((SECONDS - started))
  else
    [[ "${LAST_STAGE:-}" == "1" ]] || printf '[test] %s FAILED (%d s)\n' "$name" $((SECONDS - started)) >&2
    failed+=("$name")
  fi
}
report_failed() {
  if ((${#failed[@]} > 0)); then printf '[test] FAILED stages: %s\n' "$(IFS=','; echo "${failed[*]}")" >&2; fi
}

banner "prerequisites"
if [[ "${AGENT_TREE_SKIP_E2E:-}" == "1" ]]; then
  bash scripts/ensure-deps.sh --start || exit 1
  # The interop stage still runs: the real pi releases (ensure-deps.sh installs them in its default mode).
  node tools/pi/ensure.mjs || exit 1
else
  bash scripts/ensure-deps.sh || exit 1
fi

stage "lint: eslint" npx eslint --max-warnings=0 .
stage "lint: prettier --check" npx prettier --check --log-level=warn .
stage "typecheck: tsconfig.core.json" npx tsc -p tsconfig.core.json --noEmit
stage "typecheck: tsconfig.json" npx tsc -p tsconfig.json --noEmit
stage "typecheck: tsconfig.webview.json" npx tsc -p tsconfig.webview.json --noEmit
stage "build" node esbuild.mjs --tests
stage "unit tests (test/core, test/host)" bash scripts/run-node-tests.sh --concurrency 2 test/core test/host
stage "interop tests (test/interop, real pi 0.73.1 and 1.6.0)" bash scripts/run-node-tests.sh --concurrency 2 test/interop
if [[ "${AGENT_TREE_SKIP_E2E:-}" == "1" ]]; then
  echo "[test] AGENT_TREE_SKIP_E2E=1: end-to-end tests skipped" >&2
  report_failed
  LAST_STAGE=1 stage "webview tests (test/webview)" bash scripts/run-node-tests.sh --concurrency 2 test/webview
elif [[ " ${failed[*]} " == *" build "* ]]; then
  # Without a build the end-to-end tests could only time out.
  stage "webview tests (test/webview)" bash scripts/run-node-tests.sh --concurrency 2 test/webview
  failed+=("end-to-end tests (not run: the build failed)")
  report_failed
  exit 1
else
  stage "webview tests (test/webview)" bash scripts/run-node-tests.sh --concurrency 2 test/webview
  # One code-server (about 1.7 GB with Chromium) at a time: the oldest VS Code first (a subset), then the newest.
  code_server() { node -p "require('./$1/package.json').dependencies['code-server']"; }
  stage "end-to-end tests, oldest VS Code (code-server $(code_server e2e-server), scripts/e2e-oldest.sh)" \
    bash scripts/e2e-oldest.sh
  report_failed
  LAST_STAGE=1 stage "end-to-end tests, newest VS Code (code-server $(code_server e2e-server-newest), test/e2e)" \
    env AGENT_TREE_CODE_SERVER=newest bash scripts/run-node-tests.sh --concurrency 1 test/e2e
fi
((${#failed[@]} == 0))
