#!/usr/bin/env bash
# `npm run package`: production build, then a .vsix with vsce. The bundles carry their dependencies, so
# node_modules stays out (--no-dependencies); .vscodeignore keeps sources, tests, bench and e2e-server out.
# A vsce warning fails the build: what it warns about would show on the Marketplace entry.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -d node_modules ]] || {
  echo "[package] node_modules missing: run npm ci first" >&2
  exit 1
}
node esbuild.mjs --production
version="$(node -p 'require("./package.json").version')"
out="agent-tree-$version.vsix"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# --no-rewrite-relative-links: the README's links and images stay relative (they resolve inside the installed
# extension); rewritten to the repository they would point the benchmark chart, an SVG, at a URL vsce rejects.
node_modules/.bin/vsce package --no-dependencies --no-rewrite-relative-links --out "$out" </dev/null 2>&1 | tee "$log"
if grep -q "WARNING" "$log"; then
  echo "[package] vsce printed warnings (above); fix them in package.json or the packaged files" >&2
  exit 1
fi
bytes="$(stat -c %s "$out")"
echo "[package] $out: $bytes bytes ($((bytes / 1024)) KiB)"
