#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# native-data.py NATIVE NET: measures again, with the native Pikafish NATIVE, the native
# columns of the two parity reference tables, keeping their comments and positions:
#   test/data/pikafish-move-order.tsv   the legal moves of each position in native's generation
#                                       order (`go perft 1` lists them in generate<LEGAL> order)
#   test/data/pikafish-bench-seed1.tsv  each bench position's nodes in `bench 16 1 9` with the
#                                       network NET (the synthetic seed-1 network)
# Prints what changed; the files are rewritten only if something did. Run from the repository root.
import subprocess
import sys


def read(path):
    """The comment lines and the column header, then the data rows."""
    lines = [l for l in open(path).read().split('\n') if l]
    n = next(i for i, l in enumerate(lines) if not l.startswith('#')) + 1
    return lines[:n], lines[n:]


def write(path, head, rows, old):
    if rows == old:
        print(path, 'unchanged')
        return
    changed = sum(1 for a, b in zip(rows, old) if a != b) + abs(len(rows) - len(old))
    open(path, 'w').write('\n'.join(head + rows) + '\n')
    print(path, 'rewritten,', changed, 'rows changed')


def run(native, commands):
    return subprocess.run([native], input=commands + 'quit\n', capture_output=True, text=True).stdout


def move_order(native):
    path = 'test/data/pikafish-move-order.tsv'
    head, rows = read(path)
    fens = [r.split('\t')[0] for r in rows]
    out = run(native, ''.join(f'position fen {f}\ngo perft 1\nisready\n' for f in fens))
    lists, cur = [], []
    for line in out.split('\n'):
        if line.startswith('readyok'):
            lists.append(cur)
            cur = []
        elif len(line.split(':')[0]) == 4 and line.endswith(': 1'):
            cur.append(line.split(':')[0])
    if len(lists) != len(fens):
        sys.exit(f'{native} answered {len(lists)} of {len(fens)} positions')
    write(path, head, [f + '\t' + ' '.join(m) for f, m in zip(fens, lists)], rows)


def bench_nodes(native, net):
    path = 'test/data/pikafish-bench-seed1.tsv'
    head, rows = read(path)
    out = run(native, f'setoption name EvalFile value {net}\nbench 16 1 9\n')
    nodes, last = [], None
    for line in out.split('\n'):
        f = line.split()
        if line.startswith('info depth') and 'nodes' in f:
            last = f[f.index('nodes') + 1]
        elif line.startswith('bestmove'):
            nodes.append(last)
    if len(nodes) != len(rows):
        sys.exit(f'{native} searched {len(nodes)} of {len(rows)} bench positions')
    write(path, head, [r.rsplit('\t', 1)[0] + '\t' + n for r, n in zip(rows, nodes)], rows)


if len(sys.argv) != 3:
    sys.exit('usage: native-data.py NATIVE NET')
move_order(sys.argv[1])
bench_nodes(sys.argv[1], sys.argv[2])
