#!/usr/bin/env zsh
# SPDX-License-Identifier: GPL-3.0-or-later
# complete-zsh.zsh FPATH_DIR LINE: what zsh's completion system offers at the end of LINE, one
# a line, sorted, with the completion functions of FPATH_DIR loaded by compinit. An interactive
# zsh without start-up files runs in a pseudo-terminal (zsh/zpty) and is sent LINE and a Tab,
# as a user types them; compadd is wrapped to write down the matches it is given.
# Exit status 2 when zsh/zpty cannot be loaded.
zmodload zsh/zpty 2>/dev/null || exit 2
dir=$1
line=$2
out=$(mktemp "${TMPDIR:-/tmp}/vc-zsh-complete.XXXXXX") || exit 1
zpty vc zsh -f -i
zpty -w vc "PROMPT= RPROMPT= PS2=; unsetopt zle_bracketed_paste 2>/dev/null; fpath=(${(q)dir} \$fpath)"
zpty -w vc "autoload -U compinit && compinit -u -D"
# compadd with -O, -A or -D only fills an array: left alone
zpty -w vc "compadd () { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a __h; builtin compadd -O __h \"\$@\"; (( \$#__h )) && print -rl -- \$__h >> ${(q)out}; builtin compadd \"\$@\"; }"
zpty -w vc "zstyle ':completion:*' menu no; LISTMAX=100000"
zpty -w -n vc "$line"$'\t'
# the matches are written as the Tab is handled: wait for them (10 s at most), then a little
# longer for the last ones
for i in {1..100}; do
  [[ -s $out ]] && break
  sleep 0.1
done
sleep 0.5
zpty -d vc
sort -u "$out"
rm -f "$out"
