#!/usr/bin/env bash
# `npm run package`: production build, then a .vsix with vsce. The bundles carry their dependencies, so
# node_modules stays out (--no-dependencies); .vscodeignore keeps sources, tests, bench and e2e-server out.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ -d node_modules ]] || {
  echo "[package] node_modules missing: run npm ci first" >&2
  exit 1
}
node esbuild.mjs --production
version="$(node -p 'require("./package.json").version')"
out="agent-tree-$version.vsix"
# --no-rewrite-relative-links: the README's links are relative to the repository; no public URL is assumed.
npx vsce package --no-dependencies --allow-missing-repository --no-rewrite-relative-links --out "$out" </dev/null
bytes="$(stat -c %s "$out")"
echo "[package] $out: $bytes bytes ($((bytes / 1024)) KiB)"
