#!/usr/bin/env bash
# Installs what the tests and `npm start` need and is missing, and fails fast with a clear message when it
# cannot. Idempotent: a second run on a ready machine does nothing but checks (well under a second).
#
#   bash scripts/ensure-deps.sh            everything the tests need (Chromium, code-server, node_modules, the real
#                                          pi releases of the interop tests: tools/pi/ensure.mjs)
#   bash scripts/ensure-deps.sh --start    what `npm start` needs (no browser, no pi)
#
# Environment: AGENT_TREE_SKIP_APT=1 never calls apt-get (then missing system packages are an error).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CODE_SERVER_VERSION="4.100.3"
NEED_BROWSER=1
[[ "${1:-}" == "--start" ]] && NEED_BROWSER=0

say() { printf '[ensure-deps] %s\n' "$*"; }
die() {
  printf '[ensure-deps] ERROR: %s\n' "$*" >&2
  exit 1
}

# --- Node -------------------------------------------------------------------------------------------------
command -v node >/dev/null || die "node is not installed. Install Node.js 20 (the Node of VS Code 1.100) and retry."
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
((NODE_MAJOR >= 20)) || die "Node.js >= 20 is required (found $(node -v))."
command -v npm >/dev/null || die "npm is not installed."

# --- System packages (Debian/Ubuntu) -----------------------------------------------------------------------
# chromium drives the workbench; rg seeds @vscode/ripgrep's download cache; libkrb5-dev builds code-server's
# `kerberos` native module; g++/make/python3 build the other native modules; git runs the checkpoint tests;
# bubblewrap is the sandbox of the branches' `bash` (src/core/tools/sandbox.ts), which its tests run for real.
missing_pkgs=()
if ((NEED_BROWSER)) && [[ ! -x /usr/bin/chromium ]]; then missing_pkgs+=(chromium); fi
if ((NEED_BROWSER)) && [[ "$(uname -s)" == "Linux" && ! -x /usr/bin/bwrap ]]; then missing_pkgs+=(bubblewrap); fi
if ! command -v rg >/dev/null; then missing_pkgs+=(ripgrep); fi
if [[ ! -e /usr/include/gssapi/gssapi.h && ! -e /usr/include/krb5.h ]]; then missing_pkgs+=(libkrb5-dev); fi
for tool in git g++ make python3; do
  if ! command -v "$tool" >/dev/null; then missing_pkgs+=("$tool"); fi
done
if ((${#missing_pkgs[@]} > 0)); then
  if [[ "${AGENT_TREE_SKIP_APT:-}" != "1" && "$(id -u)" == "0" ]] && command -v apt-get >/dev/null; then
    say "apt-get install ${missing_pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing_pkgs[@]}" >/dev/null
  else
    die "missing system packages: ${missing_pkgs[*]}. Install them (Debian/Ubuntu: sudo apt-get install -y ${missing_pkgs[*]}) and retry."
  fi
fi

# --- The extension's own node_modules ----------------------------------------------------------------------
# Installed when missing. A lock file newer than node_modules only gets a warning: `npm ci` deletes
# node_modules first, which must not happen under someone's running build.
if [[ ! -e "$ROOT/node_modules/.package-lock.json" || ! -e "$ROOT/node_modules/tsx/package.json" ]]; then
  say "npm ci (extension)"
  (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
elif [[ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]]; then
  say "warning: package-lock.json is newer than node_modules; run \`npm ci\` if dependencies changed"
fi

# --- code-server in e2e-server/ ----------------------------------------------------------------------------
CS_PKG="$ROOT/e2e-server/node_modules/code-server/package.json"
installed_version=""
[[ -f "$CS_PKG" ]] && installed_version="$(node -p "require('$CS_PKG').version")"
if [[ "$installed_version" != "$CODE_SERVER_VERSION" || ! -e "$ROOT/e2e-server/node_modules/code-server/out/node/entry.js" ]]; then
  say "installing code-server@$CODE_SERVER_VERSION into e2e-server/ (cold: about 2 minutes; native modules build from source)"
  bash "$ROOT/scripts/seed-ripgrep-cache.sh"
  # Build native modules against the local Node headers when present, so node-gyp downloads nothing.
  if [[ -e /usr/include/node/node.h ]]; then export npm_config_nodedir=/usr; fi
  started=$(date +%s)
  (
    cd "$ROOT/e2e-server"
    if [[ -f package-lock.json ]]; then
      npm ci --no-audit --no-fund --loglevel=error
    else
      npm install --no-audit --no-fund --loglevel=error
    fi
  ) || die "installing code-server failed (see the npm output above). Needs g++, make, python3, libkrb5-dev."
  say "code-server installed in $(($(date +%s) - started)) s"
fi
[[ -e "$ROOT/e2e-server/node_modules/code-server/out/node/entry.js" ]] || die "code-server did not install into e2e-server/."

# --- The real pi releases of the interop tests (test/interop) ---------------------------------------------
# pi 0.73.1 in bench/pi, pi 1.6.0 and a Node 22 for it in tools/pi (git-ignored, cached).
if ((NEED_BROWSER)); then
  node "$ROOT/tools/pi/ensure.mjs" || die "installing the pi releases failed (see above): node tools/pi/ensure.mjs"
fi
exit 0
