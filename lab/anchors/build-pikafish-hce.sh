#!/usr/bin/env bash
# Builds Pikafish-HCE (Pikafish's search with a hand-crafted evaluation, the
# anchor of docs/ANCHORS.md) from a source tree that is already on this machine:
# nothing is fetched. The source is github:skystarspython/Pikafish-HCE (a clone,
# or `git archive` of a mirror); its commit is printed with the build.
#
#   bash lab/anchors/build-pikafish-hce.sh SOURCE_DIR OUTPUT_BINARY [ARCH]
#
# ARCH defaults to x86-64-avx2 (this project's machines have no AVX-512). The
# build runs at nice 10 in a scratch copy of SOURCE_DIR/src, so the source tree
# stays clean; the binary answers `uci` and `bench` before it is written.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: bash lab/anchors/build-pikafish-hce.sh SOURCE_DIR OUTPUT_BINARY [ARCH]" >&2
  exit 2
fi
src="$1"
out="$2"
arch="${3:-x86-64-avx2}"
if [ ! -f "$src/src/Makefile" ] || [ ! -f "$src/src/evaluate.cpp" ]; then
  echo "build-pikafish-hce: $src is not a Pikafish-HCE source tree (no src/Makefile, src/evaluate.cpp)" >&2
  exit 2
fi
if grep -q 'nnue/evaluate_nnue' "$src/src/Makefile"; then
  echo "build-pikafish-hce: $src looks like Pikafish with NNUE, not Pikafish-HCE" >&2
  exit 2
fi
commit="$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/pikafish-hce.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
cp -r "$src/src" "$scratch/src"
echo "build-pikafish-hce: source $src (commit $commit), ARCH=$arch"
(cd "$scratch/src" && nice -n 10 make -j2 build ARCH="$arch" COMP=gcc >"$scratch/make.log" 2>&1) || {
  tail -30 "$scratch/make.log" >&2
  echo "build-pikafish-hce: make failed (the log's tail is above)" >&2
  exit 1
}
bin="$scratch/src/pikafish"
[ -x "$bin" ] || { echo "build-pikafish-hce: make wrote no src/pikafish" >&2; exit 1; }
printf 'uci\nquit\n' | "$bin" | grep -q '^uciok' || { echo "build-pikafish-hce: the binary does not answer uci" >&2; exit 1; }
bench="$("$bin" bench 2>&1 | grep -E 'Nodes searched' || true)"
[ -n "$bench" ] || { echo "build-pikafish-hce: the binary's bench printed no node count" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
cp "$bin" "$out"
echo "build-pikafish-hce: wrote $out ($bench)"
