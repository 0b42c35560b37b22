#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench-compare.sh FIRST LAST DEPTH: Kirin's bench positions FIRST..LAST searched in one
# `bench` run by native Pikafish ($NATIVE) and by a traced Kirin checkout ($DIAG), both
# with the network $NET, Hash 16, one thread; prints each position's nodes side by side.
set -euo pipefail
: "${NATIVE:?path to a native Pikafish}" "${DIAG:?traced Kirin checkout (built)}" "${NET:?network file}"
fens=$(mktemp)
node -e "import('$DIAG/dist/src/protocol/benchpositions.js').then((m) => console.log(m.BENCH_FENS.join('\n')))" |
  sed -n "${1},${2}p" > "$fens"
nodes() { awk '/^Position/{if(n!="")print n; n=""} /^info depth/{for(i=1;i<=NF;i++) if($i=="nodes") n=$(i+1)} END{print n}'; }
printf "setoption name EvalFile value $NET\nbench 16 1 $3 $fens depth\nquit\n" | "$NATIVE" 2>&1 | nodes > "$fens.n"
printf "setoption name EvalFile value $NET\nsetoption name Repetition Rule value ComputerRule\nbench 16 1 $3 $fens depth\nquit\n" |
  node "$DIAG/bin/kirin.js" 2>&1 | nodes > "$fens.k"
paste "$fens.n" "$fens.k" | awk -v f="$1" '{print f+NR-1, $1, $2, ($1==$2?"":"<< differs")}'
rm -f "$fens" "$fens.n" "$fens.k"
