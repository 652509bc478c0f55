#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Desktop files follow the build profile: in this build directory, and in a second one
# configured with the other profile (development <-> default), the generated desktop file,
# metainfo and config.h carry that profile's application id, and the files to install (desktop
# file, metainfo, icons) are named after it. TAP output.
#
# Environment (set by tests/data/meson.build): MESON, NINJA, VC_SOURCE_ROOT, VC_BUILD_ROOT,
# VC_BASE_ID, VC_APP_ID, VC_PROFILE, VC_GUI_BUILT (true/false), DESKTOP_FILE_VALIDATE,
# APPSTREAMCLI.
set -uo pipefail

n=0
failed=0
ok ()     { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
skip ()   { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
diag ()   { sed 's/^/# /' "$1" | tail -n "${2:-40}"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vc-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# check_build BUILD_DIR APP_ID PROFILE: the generated files and the install names.
check_build () {
  local build=$1 id=$2 profile=$3 problems=()
  local desktop=$build/data/$id.desktop metainfo=$build/data/$id.metainfo.xml

  grep -qx "#define APPLICATION_ID \"$id\"" "$build/config.h" ||
    problems+=("config.h: APPLICATION_ID is not \"$id\"")
  grep -qx "#define PROFILE \"$profile\"" "$build/config.h" ||
    problems+=("config.h: PROFILE is not \"$profile\"")
  if [[ -f $desktop ]]; then
    grep -qx "Icon=$id" "$desktop" || problems+=("$id.desktop: Icon= is not $id")
  else
    problems+=("missing data/$id.desktop")
  fi
  if [[ -f $metainfo ]]; then
    grep -q "<id>$id</id>" "$metainfo" || problems+=("$id.metainfo.xml: <id> is not $id")
    grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" ||
      problems+=("$id.metainfo.xml: launchable is not $id.desktop")
  else
    problems+=("missing data/$id.metainfo.xml")
  fi
  # Generated files of the other profile must not be there.
  local f
  for f in "$build"/data/*.desktop "$build"/data/*.metainfo.xml; do
    [[ -e $f ]] || continue
    case ${f##*/} in
      "$id.desktop"|"$id.metainfo.xml") ;;
      *) problems+=("unexpected ${f#"$build"/}") ;;
    esac
  done
  if [[ ${#problems[@]} -eq 0 ]]; then
    ok "$profile profile: generated files carry $id"
  else
    not_ok "$profile profile: generated files carry $id" "${problems[@]}"
  fi

  if [[ $VC_GUI_BUILT != true ]]; then
    skip "$profile profile: installed names follow $id" "the window (vram-calculator) is not built"
    return
  fi
  "$MESON" introspect --installed "$build" >"$tmp/installed.json" 2>"$tmp/introspect.log"
  problems=()
  for f in "applications/$id.desktop" "metainfo/$id.metainfo.xml" \
           "icons/hicolor/scalable/apps/$id.svg" "icons/hicolor/symbolic/apps/$id-symbolic.svg"; do
    grep -q "/share/$f\"" "$tmp/installed.json" || problems+=("not installed: share/$f")
  done
  if [[ ${#problems[@]} -eq 0 ]]; then
    ok "$profile profile: installed names follow $id"
  else
    not_ok "$profile profile: installed names follow $id" "${problems[@]}"
    diag "$tmp/introspect.log"
  fi
}

echo "1..6"

check_build "$VC_BUILD_ROOT" "$VC_APP_ID" "$VC_PROFILE"

# The other profile, in a second build directory: configure, and build only the two files.
if [[ $VC_PROFILE == development ]]; then
  other=default; other_id=$VC_BASE_ID
else
  other=development; other_id=$VC_BASE_ID.Devel
fi
gui=disabled
[[ $VC_GUI_BUILT == true ]] && gui=enabled
other_build=$tmp/build
if "$MESON" setup "$other_build" "$VC_SOURCE_ROOT" -Dprofile="$other" -Dgui="$gui" \
     >"$tmp/setup.log" 2>&1 &&
   "$NINJA" -C "$other_build" "data/$other_id.desktop" "data/$other_id.metainfo.xml" \
     >>"$tmp/setup.log" 2>&1; then
  ok "configure a $other-profile build and generate its desktop files"
  check_build "$other_build" "$other_id" "$other"
  if "$DESKTOP_FILE_VALIDATE" "$other_build/data/$other_id.desktop" >"$tmp/validate.log" 2>&1 &&
     "$APPSTREAMCLI" validate --no-net "$other_build/data/$other_id.metainfo.xml" \
       >>"$tmp/validate.log" 2>&1; then
    ok "$other profile: desktop file and metainfo validate"
  else
    not_ok "$other profile: desktop file and metainfo validate"
    diag "$tmp/validate.log"
  fi
else
  not_ok "configure a $other-profile build and generate its desktop files" \
    "$(grep -m 3 -E 'ERROR|FAILED|error:' "$tmp/setup.log")"
  diag "$tmp/setup.log" 15
  skip "$other profile: generated files" "configure failed"
  skip "$other profile: installed names" "configure failed"
  skip "$other profile: validation" "configure failed"
fi
exit $failed
