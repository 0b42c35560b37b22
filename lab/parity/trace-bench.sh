#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# trace-bench.sh FIRST LAST DEPTH: like bench-compare.sh, with the trace builds' event
# streams (KTRACE); compares the stream of the last position's search (positions before
# it leave their table and histories behind, as in `bench`). Needs disk: about 17 lines
# per node and engine.
set -euo pipefail
: "${NATIVE:?traced native Pikafish}" "${DIAG:?traced Kirin checkout (built)}" "${NET:?network file}"
dir=$(mktemp -d)
node -e "import('$DIAG/dist/src/protocol/benchpositions.js').then((m) => console.log(m.BENCH_FENS.join('\n')))" |
  sed -n "${1},${2}p" > "$dir/fens"
n=$(wc -l < "$dir/fens")
printf "setoption name EvalFile value $NET\nbench 16 1 $3 $dir/fens depth\nquit\n" | KTRACE=1 "$NATIVE" 2> "$dir/native.all" > /dev/null
start=$(grep -n "^Position: $n/$n" "$dir/native.all" | cut -d: -f1)
tail -n +"$((start + 1))" "$dir/native.all" > "$dir/native"
printf "setoption name EvalFile value $NET\nsetoption name Repetition Rule value ComputerRule\nbench 16 1 $3 $dir/fens depth\nquit\n" |
  KTRACE="$dir/kirin.all" node --max-old-space-size=8000 "$DIAG/bin/kirin.js" > /dev/null 2>&1
start=$(grep -n "^=== search" "$dir/kirin.all" | tail -1 | cut -d: -f1)
tail -n +"$((start + 1))" "$dir/kirin.all" > "$dir/kirin"
python3 "$(dirname "$0")/compare.py" "$dir/native" "$dir/kirin"
rm -rf "$dir"
