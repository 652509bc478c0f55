#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# vramcalc's man page and shell completions: the built copies are what the option table gives
# now, byte for byte; every option of --help is in each; the man page formats without a warning;
# the completion scripts parse, and bash's and zsh's complete options, values, presets and
# files, fish's values and presets, each loaded by its shell as a user's shell loads it (zsh and
# fish where they are installed); meson installs them where man and the shells look. TAP output.
#
# Environment (set by tests/data/meson.build): VRAMCALC, VC_CLI_DOCS (the folder they are built
# in), VC_BUILD_ROOT, MESON, VC_MANDIR, VC_DATADIR.
set -uo pipefail
export LC_ALL=C.UTF-8
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the completions run the program by its name, as when it is installed
PATH=$(dirname "$VRAMCALC"):$PATH

n=0
failed=0
ok ()      { n=$((n + 1)); echo "ok $n - $1"; }
not_ok ()  { n=$((n + 1)); failed=1; echo "not ok $n - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
skip ()    { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check ()   { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vc-cli-docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

declare -A file=([man]=vramcalc.1 [bash]=vramcalc [zsh]=_vramcalc [fish]=vramcalc.fish)
formats=(man bash zsh fish)
echo "1..22"

# 1-4. The built copies are what the option table gives now.
for f in "${formats[@]}"; do
  "$VRAMCALC" --generate "$f" >"$tmp/$f" 2>"$tmp/$f.err"
  if cmp -s "$tmp/$f" "$VC_CLI_DOCS/${file[$f]}" && [[ -s $tmp/$f && ! -s $tmp/$f.err ]]; then
    ok "$f: ${file[$f]} regenerates byte-identical from the option table"
  else
    not_ok "$f: ${file[$f]} regenerates byte-identical from the option table" \
      "$(diff "$VC_CLI_DOCS/${file[$f]}" "$tmp/$f" | head -20)" "$(cat "$tmp/$f.err")"
  fi
done

# 5-8. Every option --help lists (general and architecture groups) is in each of them.
"$VRAMCALC" --help >"$tmp/help"
mapfile -t listed < <(grep -oE '^ +(-h, )?--[a-z0-9-]+' "$tmp/help" | sed -E 's/.*--//')
if [[ ${#listed[@]} -lt 60 ]]; then
  failed=1
  echo "# --help lists only ${#listed[@]} options"
fi
for f in "${formats[@]}"; do
  missing=()
  for o in "${listed[@]}"; do
    case $f in
      man)  grep -qF "\\fB\\-\\-${o//-/\\-}\\fR" "$tmp/man" || missing+=("$o") ;;
      bash) grep -qE "(^|[ '|])--$o( |'|$)" "$tmp/bash" || missing+=("$o") ;;
      zsh)  grep -qE "(\\{-h,)?--$o(=|\\[|'|\\})" "$tmp/zsh" || missing+=("$o") ;;
      fish) grep -qE -- "-l $o( |$)" "$tmp/fish" || missing+=("$o") ;;
    esac
  done
  if [[ ${#missing[@]} -eq 0 ]]; then
    ok "$f: all ${#listed[@]} options of --help"
  else
    not_ok "$f: all options of --help" "missing: ${missing[*]}"
  fi
done

# 9. The man page formats without a warning, and says what -h and --config do.
if command -v groff >/dev/null; then
  groff -man -ww -z "$tmp/man" >"$tmp/groff.log" 2>&1
  text=$(groff -man -Tutf8 -P -c "$tmp/man" 2>/dev/null | sed 's/.\x08//g; s/\xe2\x88\x92/-/g')
  if [[ ! -s $tmp/groff.log && $text == *"-h, --help"* && $text == *"--config FILE"* &&
        $text == *"is read from standard input"* && $text == *"EXIT STATUS"* ]]; then
    ok "man: groff formats it without a warning"
  else
    not_ok "man: groff formats it without a warning" "$(cat "$tmp/groff.log")"
  fi
else
  skip "man: groff formats it without a warning" "no groff"
fi

# 10. bash: the script parses.
check "bash: the completion script parses" bash -n "$tmp/bash"

# 11-14. bash: options, values of a choice, presets from --list-presets, files.
complete_bash () {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _vramcalc
           printf "%s\n" "${COMPREPLY[@]}"' _ "$tmp/bash" "$@"
}
mkdir -p "$tmp/models/llama"
got=$(complete_bash "$VRAMCALC" --conf | tr '\n' ' ')
check "bash: --conf completes to --config (got: $got)" test "$got" = "--config "
got=$(complete_bash "$VRAMCALC" --kv-precision "" | tr '\n' ' ')
check "bash: --kv-precision offers its values (got: $got)" test "$got" = "fp32 fp16 bf16 fp8 int8 int4 "
# bash splits --preset=llama-3-8 at the "=" (COMP_WORDBREAKS)
got=$(complete_bash "$VRAMCALC" --preset = llama-3-8 | tr '\n' ' ')
presets=$("$VRAMCALC" --list-presets | cut -d ' ' -f 1 | grep '^llama-3-8' | tr '\n' ' ')
check "bash: --preset=llama-3-8 completes from --list-presets (got: $got)" \
  test "$got" = "$presets" -a -n "$presets" -a "${got#*llama-3-8b }" != "$got"
got=$(cd "$tmp" && complete_bash "$VRAMCALC" --profile mod | tr '\n' ' ')
check "bash: --profile completes file names (got: $got)" test "$got" = "models "

# 15-19. zsh parses its script and, loaded by compinit in an interactive zsh, completes
# options, values of a choice, presets from --list-presets and files, where it is installed.
zsh_checks=("zsh: --conf completes to --config" "zsh: --kv-precision offers its values"
            "zsh: --preset=llama-3-8 completes from --list-presets" "zsh: --profile completes file names")
if ! command -v zsh >/dev/null; then
  skip "zsh: the completion script parses" "no zsh on this system"
  for c in "${zsh_checks[@]}"; do skip "$c" "no zsh on this system"; done
else
  check "zsh: the completion script parses" zsh -n "$tmp/zsh"
  mkdir -p "$tmp/zfunc"
  cp "$tmp/zsh" "$tmp/zfunc/_vramcalc"
  complete_zsh () { zsh "$here/complete-zsh.zsh" "$tmp/zfunc" "$1" | tr '\n' ' '; }
  if ! zsh -c 'zmodload zsh/zpty' 2>/dev/null; then
    for c in "${zsh_checks[@]}"; do skip "$c" "zsh has no zsh/zpty module to drive it"; done
  else
    got=$(complete_zsh "vramcalc --conf")
    check "${zsh_checks[0]} (got: $got)" test "$got" = "--config "
    got=$(complete_zsh "vramcalc --kv-precision ")
    check "${zsh_checks[1]} (got: $got)" test "$got" = "bf16 fp16 fp32 fp8 int4 int8 "
    got=$(complete_zsh "vramcalc --preset=llama-3-8")
    presets=$("$VRAMCALC" --list-presets | cut -d ' ' -f 1 | grep '^llama-3-8' | sort | tr '\n' ' ')
    check "${zsh_checks[2]} (got: $got)" test "$got" = "$presets" -a -n "$presets"
    got=$(cd "$tmp" && complete_zsh "vramcalc --profile mod")
    check "${zsh_checks[3]} (got: $got)" test "$got" = "models "
  fi
fi

# 20-21. fish parses its script and completes a choice's values and the presets from it, where
# it is installed.
if command -v fish >/dev/null; then
  got=$(fish -n "$tmp/fish" && fish -c "source '$tmp/fish'; complete -C 'vramcalc --kv-precision '" | cut -f 1 | sort | tr '\n' ' ')
  check "fish: the completion script parses and offers --kv-precision's values (got: $got)" \
    test "$got" = "bf16 fp16 fp32 fp8 int4 int8 "
  got=$(fish -c "source '$tmp/fish'; complete -C 'vramcalc --preset llama-3-8'" | cut -f 1 | sort | tr '\n' ' ')
  presets=$("$VRAMCALC" --list-presets | cut -d ' ' -f 1 | grep '^llama-3-8' | sort | tr '\n' ' ')
  check "fish: --preset llama-3-8 completes from --list-presets (got: $got)" \
    test "$got" = "$presets" -a -n "$presets"
else
  skip "fish: the completion script parses and offers --kv-precision's values" "no fish on this system"
  skip "fish: --preset llama-3-8 completes from --list-presets" "no fish on this system"
fi

# 22. meson installs them where man and the shells look for them.
"$MESON" introspect --installed "$VC_BUILD_ROOT" >"$tmp/installed.json"
missing=()
for dest in "$VC_MANDIR/man1/vramcalc.1" "$VC_DATADIR/bash-completion/completions/vramcalc" \
            "$VC_DATADIR/zsh/site-functions/_vramcalc" "$VC_DATADIR/fish/vendor_completions.d/vramcalc.fish"; do
  grep -qF "\"$dest\"" "$tmp/installed.json" || missing+=("$dest")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  ok "meson installs the man page and the three completions"
else
  not_ok "meson installs the man page and the three completions" "not installed: ${missing[*]}"
fi
exit $failed
