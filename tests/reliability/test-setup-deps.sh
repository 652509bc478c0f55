#!/usr/bin/env bash
# build-aux/setup-deps decides what to install: nothing when everything is found (on any
# system), apt-get through sudo only where both exist, else a list of what is missing with
# the apt, dnf and pacman commands. Package managers and sudo are stand-ins that record their
# calls; nothing is installed. TAP output.
set -u
setup_deps=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
check () { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# a bin folder of stand-ins; $1: "sudo" to have one, "apt" to have apt-get
make_bin () {
  local bin=$tmp/bin-$RANDOM
  mkdir -p "$bin"
  for tool in awk mktemp rm cat grep; do ln -s "$(command -v $tool)" "$bin/$tool"; done
  for opt in "$@"; do
    case $opt in
      sudo) printf '#!/bin/sh\necho "sudo $*" >> "%s/calls"\nexec "$@"\n' "$tmp" > "$bin/sudo" ;;
      apt) printf '#!/bin/sh\necho "apt-get $*" >> "%s/calls"\n' "$tmp" > "$bin/apt-get" ;;
    esac
  done
  chmod +x "$bin"/* 2>/dev/null
  echo "$bin"
}

# runs vc_install_deps in a subshell: $1 uid, $2 bin folder, $3 what is missing (a regex on
# the checks, or "none"); prints the exit status, output in $tmp/out
run_case () {
  local uid=$1 bin=$2
  stub_missing=$3
  rm -f "$tmp/calls"
  (
    source "$setup_deps"
    id () { echo "$uid"; }
    vc_check_need () { [[ $stub_missing == none ]] && return 0; ! [[ $1 =~ $stub_missing ]]; }
    PATH=$bin
    vc_install_deps
  ) > "$tmp/out" 2>&1
  echo $?
}

echo "1..16"

rc=$(run_case 1000 "$(make_bin sudo apt)" none)
check "everything found: returns 0" "[[ $rc -eq 0 ]]"
check "everything found: neither sudo nor apt-get runs" "[[ ! -e $tmp/calls ]]"

rc=$(run_case 1000 "$(make_bin apt)" 'gtk4')
check "user without sudo: fails with 1, not 127" "[[ $rc -eq 1 ]]"
check "user without sudo: no 'command not found'" "! grep -q 'not found' $tmp/out"
check "user without sudo: the apt, dnf and pacman commands" \
  "grep -q 'apt-get install libgtk-4-dev' $tmp/out && grep -q 'dnf install gtk4-devel' $tmp/out && grep -q 'pacman -S --needed gtk4' $tmp/out"
check "user without sudo: nothing run" "[[ ! -e $tmp/calls ]]"

rc=$(run_case 0 "$(make_bin)" 'json-glib|meson')
check "root without apt-get (Fedora, Arch): fails with 1" "[[ $rc -eq 1 ]]"
check "root without apt-get: lists both missing" \
  "grep -q 'dnf install meson json-glib-devel' $tmp/out && grep -q 'pacman -S --needed meson json-glib' $tmp/out"

rc=$(run_case 1000 "$(make_bin sudo apt)" 'gtk4')
check "user with sudo and apt-get: installs" "[[ $rc -eq 0 ]]"
check "user with sudo and apt-get: through sudo, and says so" \
  "grep -q 'sudo apt-get install -y -qq --no-install-recommends libgtk-4-dev' $tmp/calls && grep -q 'may ask for your password' $tmp/out"

rc=$(run_case 0 "$(make_bin apt)" 'clang|fuzzer')
check "fuzzing needs are only checked when asked for" "[[ $rc -eq 0 && ! -e $tmp/calls ]]"
rc=$(
  source "$setup_deps"
  id () { echo 0; }
  vc_check_need () { ! [[ $1 =~ clang|fuzzer ]]; }
  PATH=$(make_bin apt)
  vc_install_deps fuzz > "$tmp/out" 2>&1
  echo $?
)
check "fuzz: clang and libFuzzer from Debian" "[[ $rc -eq 0 ]] && grep -q 'install -y -qq --no-install-recommends clang libclang-rt-14-dev' $tmp/calls"
rc=$(
  source "$setup_deps"
  id () { echo 0; }
  vc_check_need () { ! [[ $1 =~ xvfb-run|appstreamcli|gtk4 ]]; }
  PATH=$(make_bin apt)
  vc_install_deps run > "$tmp/out" 2>&1
  echo $?
)
check "run: what running needs is installed" "[[ $rc -eq 0 ]] && grep -q 'install -y -qq --no-install-recommends libgtk-4-dev\$' $tmp/calls"
check "run: the test tools are left out" "! grep -q 'xvfb\\|appstream' $tmp/calls"
# .ci/run: every part's needs in one apt-get, the Debian 13 root's debootstrap among them
rm -f "$tmp/calls"
rc=$(
  source "$setup_deps"
  id () { echo 0; }
  vc_check_need () { ! [[ $1 =~ debootstrap|clang|gtk4 ]]; }
  PATH=$(make_bin apt)
  vc_install_deps fuzz newer > "$tmp/out" 2>&1
  echo $?
)
check "fuzz newer: one install of all three" \
  "[[ $rc -eq 0 && \$(grep -c 'apt-get install' $tmp/calls) -eq 1 ]] && grep -q 'install -y -qq --no-install-recommends libgtk-4-dev clang debootstrap\$' $tmp/calls"
check "debootstrap only when asked for" "[[ \$(source $setup_deps; vc_check_need () { ! [[ \$1 =~ debootstrap ]]; }; vc_missing_needs fuzz) == '' ]]"
exit $failed
