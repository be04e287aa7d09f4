#!/usr/bin/env bash
# Runs node's test runner (with tsx) over every *.test.ts under the given folders, and the given test files.
# Node 20's `--test` does not expand globs itself, so the files are listed here.
#   bash scripts/run-node-tests.sh [--concurrency N] <folder or file.test.ts>...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
concurrency=1
if [[ "${1:-}" == "--concurrency" ]]; then
  concurrency="$2"
  shift 2
fi
files=()
for dir in "$@"; do
  if [[ -f "$dir" && "$dir" == *.test.ts ]]; then
    files+=("$dir")
    continue
  fi
  [[ -d "$dir" ]] || continue
  while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$dir" -name '*.test.ts' -type f -print0 | sort -z)
done
if ((${#files[@]} == 0)); then
  echo "[run-node-tests] ERROR: no *.test.ts files under: $*" >&2
  exit 1
fi
exec node --import tsx --test --test-concurrency="$concurrency" "${files[@]}"
