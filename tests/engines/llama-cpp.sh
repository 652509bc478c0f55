#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The real-engine suite for llama.cpp: installs node-llama-cpp (pinned, with its prebuilt
# llama.cpp for Linux x64) from the npm registry into a cache folder outside the source tree,
# reused while present, then runs llama-cpp.mjs. TAP; where the package cannot be installed
# (no node or npm, another platform, the registry out of reach) the suite reports a skip,
# never a pass.
#
# Usage: llama-cpp.sh VRAMCALC
# VC_ENGINE_CACHE: the cache folder (default: $XDG_CACHE_HOME/vramcalc/engines)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
vramcalc=$1
version=3.21.1

# a TAP plan of no test with its reason: meson counts it as skipped (exit 77 would be an error
# under the TAP protocol)
skip () {
  echo "1..0 # SKIP $*"
  exit 0
}

[[ $(uname -s) == Linux && $(uname -m) == x86_64 ]] ||
  skip "node-llama-cpp's prebuilt llama.cpp used here is for Linux x86-64"
command -v node >/dev/null 2>&1 || skip "node is not installed"
command -v npm >/dev/null 2>&1 || skip "npm is not installed"
[[ $(node -p 'process.versions.node.split(".")[0]') -ge 20 ]] || skip "node-llama-cpp $version needs Node.js 20 or newer (found $(node --version))"

cache=${VC_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vramcalc/engines}/node-llama-cpp-$version
installed () {
  [[ $(node -p "require('$cache/node_modules/node-llama-cpp/package.json').version" 2>/dev/null) == "$version" &&
     -d $cache/node_modules/@node-llama-cpp/linux-x64 ]]
}
if ! installed; then
  mkdir -p "$(dirname "$cache")" || skip "cannot create $(dirname "$cache")"
  staging=$(mktemp -d "$cache.XXXXXX") || skip "cannot create a folder beside $cache"
  echo '{ "private": true }' > "$staging/package.json"
  # the CPU build only: the CUDA and Vulkan builds are optional dependencies
  if ! log=$(cd "$staging" && timeout 600 npm install --no-audit --no-fund --ignore-scripts --omit=optional \
               --fetch-retries 2 --fetch-retry-mintimeout 2000 --fetch-retry-maxtimeout 10000 \
               "node-llama-cpp@$version" "@node-llama-cpp/linux-x64@$version" 2>&1); then
    rm -rf "$staging"
    skip "the npm registry cannot be reached: npm install node-llama-cpp@$version failed ($(grep -m1 -E 'npm error (code|network|errno)' <<< "$log" || tail -1 <<< "$log"))"
  fi
  rm -rf "$cache"
  mv "$staging" "$cache" || skip "cannot move the package into $cache"
  installed || skip "node-llama-cpp $version did not install into $cache"
fi

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
node "$here/llama-cpp.mjs" "$vramcalc" "$cache/node_modules" "$work"
