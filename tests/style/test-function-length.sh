#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# build-aux/check-function-length: on function-length-sample.c with a limit of 5 lines it names
# the one function over it, with its file, line and length, and not the tables, the struct, the
# enum, the macro or the braces in comments and strings; at its limit a function passes. TAP.
set -u
script=$1
sample=$2
echo "1..2"
out=$("$script" --max 5 "$sample" 2>/dev/null)
rc=$?
expected="$(basename "$sample"):34: too_long is 6 lines, over the limit of 5"
if [[ $rc -eq 1 && $(wc -l <<< "$out") -eq 1 && $out == *"$expected" ]]; then
  echo "ok 1 - only too_long is over 5 lines, named with its line and length"
else
  echo "not ok 1 - only too_long is over 5 lines, named with its line and length"
  printf '# rc %s, got:\n' "$rc"; sed 's/^/# /' <<< "$out"
  exit 1
fi
if "$script" --max 6 "$sample" >/dev/null 2>&1; then
  echo "ok 2 - with a limit of 6 lines, nothing is over"
else
  echo "not ok 2 - with a limit of 6 lines, nothing is over"
  exit 1
fi
