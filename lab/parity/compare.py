#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""compare.py NATIVE_TRACE KIRIN_TRACE: the first line where two search traces differ.

Each trace is one search's stream of events (see README.md for the line kinds).
Prints the first difference with three lines of context on each side and the
line of moves from the root to that point, or that the streams agree.
"""
import sys

FILES = 'abcdefghi'
EVENTS = 'SCMEUDLTWPQXK'  # every line kind that is not a move made ("ply from to")


def square(s):
    s = int(s)
    return FILES[s % 9] + str(s // 9)


def show(line):
    f = line.split()
    if not f:
        return line
    if f[0][0] not in EVENTS:
        return f[0] + ' ' + square(f[1]) + square(f[2])
    if f[0] in ('S0', 'S1', 'S2'):
        return f[0] + ' ' + square(f[1]) + square(f[2]) + ' ' + f[3]
    return line


def lines(path):
    return open(path).read().split('\n')


def main():
    a, b = lines(sys.argv[1]), lines(sys.argv[2])
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        path = {}
        for l in a[:i]:
            if not l or l[0] in EVENTS:
                continue
            ply, frm, to = l.split()
            path[int(ply)] = square(frm) + square(to)
            for k in [k for k in path if k > int(ply)]:
                del path[k]
        print('first difference at line', i + 1, '| native:', x, '| kirin:', y)
        print('native', [show(l) for l in a[max(0, i - 3):i + 3] if l])
        print('kirin ', [show(l) for l in b[max(0, i - 3):i + 3] if l])
        print('line of moves:', ' '.join(path[p] for p in sorted(path)))
        return
    print('identical over', min(len(a), len(b)), 'lines', '' if len(a) == len(b) else f'(lengths {len(a)} and {len(b)})')


main()
