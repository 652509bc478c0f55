#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the build into a temporary DESTDIR, checks that the desktop files are named after the
# application id, then launches the installed program from the installed desktop file's Exec
# line, with the installed schema, under the test's display and a private D-Bus session. The
# program must still be running after a few seconds (no crash, no early exit). TAP output.
#
# Environment (set by tests/data/meson.build): MESON, VC_BUILD_ROOT, VC_PREFIX, VC_BINDIR,
# VC_LIBDIR, VC_DATADIR, VC_APP_ID, VC_GUI_BUILT (true/false); VC_LAUNCH_SECONDS (default 3).
set -uo pipefail

n=0
failed=0
ok ()      { n=$((n + 1)); echo "ok $n - $1"; }
not_ok ()  { n=$((n + 1)); failed=1; echo "not ok $n - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
skip ()    { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag ()    { sed 's/^/# /' "$1" | tail -n "${2:-40}"; }

# Launched from inside a private D-Bus session: start, wait, check, terminate.
if [[ ${1:-} == --launch ]]; then
  shift
  log=$1; shift
  "$@" >"$log" 2>&1 &
  pid=$!
  sleep "${VC_LAUNCH_SECONDS:-3}"
  if kill -0 "$pid" 2>/dev/null && [[ $(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) != Z ]]; then
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null
    exit 0
  fi
  wait "$pid"
  echo "exited early with status $?" >>"$log"
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vc-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
root=$dest$VC_PREFIX
share=$dest$VC_DATADIR
bindir=$dest$VC_BINDIR
app_id=$VC_APP_ID

echo "1..7"

# 1. meson install into the temporary DESTDIR (what build-aux/test compiled; no rebuild here,
#    since other tests run from the same build directory at the same time).
if "$MESON" install -C "$VC_BUILD_ROOT" --no-rebuild --quiet --destdir "$dest" >"$tmp/install.log" 2>&1; then
  ok "meson install into a temporary prefix ($VC_PREFIX)"
else
  not_ok "meson install into a temporary prefix ($VC_PREFIX)"
  diag "$tmp/install.log"
  for i in 2 3 4 5 6 7; do skip "after install" "install failed"; done
  exit 1
fi

# 2. The schema is installed and compiles.
schemas=$share/glib-2.0/schemas
if [[ -f $schemas/io.github.vramcalc.VramCalculator.gschema.xml ]] &&
   glib-compile-schemas --strict "$schemas" 2>"$tmp/schemas.log"; then
  ok "GSettings schema installed and compiled in the temporary prefix"
else
  not_ok "GSettings schema installed and compiled in the temporary prefix"
  diag "$tmp/schemas.log"
fi

if [[ $VC_GUI_BUILT != true ]]; then
  for what in "desktop files named after $app_id" "Icon= names the installed icon" \
              "installed tree passes appstreamcli validate-tree" \
              "Exec= resolves to the installed program" "program launched from Exec= keeps running"; do
    skip "$what" "the window (vram-calculator) is not built"
  done
  exit $failed
fi

# 3. Desktop file, metainfo and icons named after the application id.
desktop=$share/applications/$app_id.desktop
missing=()
for f in "$desktop" "$share/metainfo/$app_id.metainfo.xml" \
         "$share/icons/hicolor/scalable/apps/$app_id.svg" \
         "$share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg" \
         "$bindir/vram-calculator" "$bindir/vramcalc"; do
  [[ -e $f ]] || missing+=("missing: ${f#"$dest"}")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  ok "desktop files named after $app_id"
else
  not_ok "desktop files named after $app_id" "${missing[@]}"
fi

# The value of KEY in the [Desktop Entry] group of the installed desktop file.
desktop_key () {
  awk -v key="$1" '
    /^\[/ { group = $0; next }
    group == "[Desktop Entry]" && index($0, key "=") == 1 { print substr($0, length(key) + 2); exit }
  ' "$desktop" 2>/dev/null
}

# 4. Icon= names an icon that is installed.
icon=$(desktop_key Icon)
if [[ $icon == "$app_id" && -f $share/icons/hicolor/scalable/apps/$icon.svg ]]; then
  ok "Icon= names the installed icon ($icon)"
else
  not_ok "Icon= names the installed icon" "Icon=$icon, application id $app_id"
fi

# 5. The metainfo, desktop file and icons agree (launchable, icon, id).
if appstreamcli validate-tree --no-net "$root" >"$tmp/tree.log" 2>&1; then
  ok "installed tree passes appstreamcli validate-tree"
else
  not_ok "installed tree passes appstreamcli validate-tree"
  diag "$tmp/tree.log"
fi

# 6. Exec= (field codes removed) resolves to the installed program.
exec_line=$(desktop_key Exec)
exec_line=$(sed -E 's/(^| )%[fFuUdDnNickvm]//g; s/%%/%/g' <<<"$exec_line")
read -r -a argv <<<"$exec_line"
program=$(PATH=$bindir:$PATH command -v "${argv[0]:-}" || true)
if [[ -n $program && $program == "$bindir"/* ]]; then
  ok "Exec= resolves to the installed program (${program#"$dest"})"
else
  not_ok "Exec= resolves to the installed program" "Exec=$exec_line found '${program}', not in ${bindir#"$dest"}"
  skip "program launched from Exec= keeps running" "no installed program"
  exit 1
fi
argv[0]=$program

# 7. Launch it, with the installed data only, under the display and a private D-Bus session
#    (so that no other instance registered under the same id takes the activation).
if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
  skip "program launched from Exec= keeps running" "no DISPLAY"
  exit $failed
fi
# A fresh home and XDG directories; the X authority of the real home still opens the display.
if [[ -z ${XAUTHORITY:-} && -f ${HOME:-/nonexistent}/.Xauthority ]]; then
  export XAUTHORITY=$HOME/.Xauthority
fi
mkdir -p "$tmp/home" "$tmp/config" "$tmp/cache" "$tmp/data"
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache XDG_DATA_HOME=$tmp/data
export XDG_DATA_DIRS=$share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}
export GSETTINGS_SCHEMA_DIR=$schemas
export GTK_A11Y=none NO_AT_BRIDGE=1
export G_DEBUG=fatal-criticals
export LD_LIBRARY_PATH=$dest$VC_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
seconds=${VC_LAUNCH_SECONDS:-3}
if dbus-run-session -- "$0" --launch "$tmp/app.log" "${argv[@]}" 2>>"$tmp/app.log"; then
  ok "program launched from Exec= keeps running after ${seconds}s, then terminates"
else
  not_ok "program launched from Exec= keeps running after ${seconds}s"
  diag "$tmp/app.log"
fi
exit $failed
