#!/usr/bin/env python3
"""Independent reference for the expected values of
test/e2e/programs/map_chunks.arr (plain Python loops, no arrc involved).
Prints one `name args ==> value` line per run line; the values in that file
were pasted from this output.

usage: python3 chunks_reference.py
"""
from refcommon import fmt, i32  # noqa: F401 (shared helpers)


def line1(n):
    return [(i * 7 + 3) % 11 - 5 for i in range(n)]


def plane(m, n):
    return [[(i * 5 + j * 3) % 7 - 3 for j in range(n)] for i in range(m)]


def cube(a, b, c):
    return [[[(i * 3 + j * 5 + k) % 9 for k in range(c)] for j in range(b)] for i in range(a)]


def piecewise(m):
    xs = [((i * 13) % 17) * 0.125 for i in range(m)]
    return [x * x if x > 0.5 else 1.0 - x for x in xs]


def pairs(n):
    return [(i32(i * i - 40 * i), i % 3 == 0) for i in range(n)]


def column(A):
    return [2.0 * row[1] for row in A]


RUNS = [
    ("line1", (600,)), ("line1", (0,)), ("line1", (1,)),
    ("plane", (3, 300)), ("plane", (70, 5)), ("plane", (0, 4)),
    ("cube", (2, 60, 5)), ("cube", (3, 2, 1)),
    ("piecewise", (300,)),
    ("pairs", (260,)),
    ("column", ([[1.0, 2.0, 3.0], [4.0, 5.5, 6.0], [7.0, -8.0, 9.0]],)),
]

if __name__ == "__main__":
    for name, args in RUNS:
        print(name, " ".join(fmt(a) for a in args), "==>", fmt(globals()[name](*args)))
