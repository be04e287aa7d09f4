#!/usr/bin/env bash
# @vscode/ripgrep (a code-server dependency) downloads `rg` from GitHub in its postinstall. Offline machines
# cannot, so put the system's rg into its download cache under the exact name it looks for; it then logs
# "Using cached download". The cache lives in os.tmpdir() (TMPDIR or /tmp).
set -euo pipefail

RG_PACKAGE_VERSION="${RG_PACKAGE_VERSION:-1.15.11}" # @vscode/ripgrep version pinned by code-server 4.100.3
RG_RELEASE="${RG_RELEASE:-v13.0.0-10}"             # the ripgrep build that version downloads

RG="$(command -v rg || true)"
[[ -n "$RG" ]] || {
  echo "[seed-ripgrep] ERROR: rg not found (apt-get install ripgrep)" >&2
  exit 1
}
case "$(uname -m)" in
  x86_64) target="x86_64-unknown-linux-musl" ;;
  aarch64) target="aarch64-unknown-linux-musl" ;;
  *)
    echo "[seed-ripgrep] unsupported arch $(uname -m); @vscode/ripgrep will try to download" >&2
    exit 0
    ;;
esac
cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-$RG_PACKAGE_VERSION"
tarball="$cache/ripgrep-$RG_RELEASE-$target.tar.gz"
[[ -s "$tarball" ]] && exit 0
mkdir -p "$cache"
work="$(mktemp -d)"
cp "$RG" "$work/rg"
tar -czf "$tarball" -C "$work" rg
rm -rf "$work"
echo "[seed-ripgrep] seeded $tarball from $RG"
