#!/usr/bin/env python3
"""Independent reference for the expected values of
test/e2e/programs/long_rows.arr (plain Python loops, no arrc involved).
Prints one `name args ==> value` line per case; the values in that file were
pasted from this output.

usage: python3 long_rows_reference.py
"""
from refcommon import fmt, i32

LENS = [0, 1, 300, 5, -5, 1000, 257, 2, 256, 3000]
OFF = [0, 3, 3, 700, 702, 2702, 2960, 2961]


def rowsums(lens):
    return [float(sum(((i + j) % 7) * 0.25 for j in range(max(n, 0)))) for i, n in enumerate(lens)]


def isums(lens):
    return [i32(sum((i * j) % 11 for j in range(max(n, 0)))) for i, n in enumerate(lens)]


def csr(off):
    v = [(k % 5) * 0.5 for k in range(off[-1])]
    return [2.0 * float(sum(v[k] for k in range(off[i], off[i + 1]))) + float(i) for i in range(len(off) - 1)]


def oob(lens, a):
    return [float(sum(a[j] for j in range(max(n, 0)))) for n in lens]


for name, f, args in [("rowsums", rowsums, (LENS,)), ("isums", isums, (LENS,)), ("csr", csr, (OFF,)),
                      ("oob", oob, ([2, 3, 0], [1.0, 2.0, 3.0]))]:
    print(name, " ".join(fmt(a) for a in args), "==>", fmt(f(*args)))
