#!/usr/bin/env python3
"""Independent reference for the expected values of
test/e2e/programs/guarded_ranges.arr (plain Python loops over the whole
ranges with the filters applied as written, no arrc involved). Prints one
`name args ==> value` line per run line; the values in that file were
pasted from this output.

usage: python3 guards_reference.py
"""
from refcommon import fmt

IMAX, IMIN = 2**31 - 1, -(2**31)


def triples(n):
    return sum(1 for x in range(1, n) for y in range(x, n) for z in range(y, x + y)
               if z < n and x * x + y * y == z * z)


def bounds(a, b, e):
    r = range(a, b)
    return ([z for z in r if z < e], [z for z in r if z <= e], [z for z in r if z > e],
            [z for z in r if z >= e], [z for z in r if e > z], [z for z in r if e <= z])


def inclusive(a, b, e):
    r = range(a, b + 1)
    return ([z for z in r if z <= e], [z for z in r if z >= e], [z for z in r if z < e],
            [z for z in r if z > e])


def two(a, b, lo, hi):
    return [z for z in range(a, b) if z >= lo if z * 3 % 2 == 0 if z < hi]


def first_fails(xs, m, n):
    out = []
    for z in range(0, m):
        if not (0 <= z < len(xs)):
            return "error"
        if xs[z] > 0 and z < n:
            out.append(z)
    return out


def guarded_read(xs, m):
    return [xs[z] for z in range(0, m) if z < len(xs)]


def zipped(n, k):
    a = [x for x in range(0, n) if x < k]
    b = list(range(0, min(n, k)))
    return [x + y for x, y in zip(a, b)]


def conj(xs, m):
    return [z for z in range(0, m) if z < len(xs) and xs[z] > 0]


def conj_fails(xs, m):
    out = []
    for z in range(0, m):
        if not (0 <= z < len(xs)):
            return "error"
        if xs[z] > 0 and z < 2:
            out.append(z)
    return out


def longs(m, e):
    return sum(z for z in range(0, m) if z < e)


def nested(n):
    return [sum(z for z in range(0, i) if z > 2) for i in range(n)]


RUNS = [
    ("triples", triples, [(20,), (100,), (1,)]),
    ("bounds", bounds, [(0, 10, 4), (0, 10, -3), (0, 10, 25), (5, 2, 3),
                        (IMAX - 3, IMAX, IMAX), (IMIN, IMIN + 3, IMIN)]),
    ("inclusive", inclusive, [(0, 6, 3), (IMAX - 2, IMAX, IMAX), (IMIN, IMIN + 2, IMIN)]),
    ("two", two, [(0, 20, 3, 15), (0, 20, 15, 3)]),
    ("first_fails", first_fails, [([1, 0, 2], 3, 2), ([1, 0, 2], 5, 2)]),
    ("guarded_read", guarded_read, [([4, 5, 6], 10), ([4, 5, 6], 2)]),
    ("zipped", zipped, [(10, 4), (3, 8)]),
    ("conj", conj, [([3, 0, 5, 7], 9), ([3, 0, 5, 7], 2)]),
    ("conj_fails", conj_fails, [([3, 0, 5], 3), ([3, 0, 5], 4)]),
    ("longs", longs, [(10, 4), (5, 3000000000)]),
    ("nested", nested, [(6,)]),
]

if __name__ == "__main__":
    for name, f, cases in RUNS:
        for args in cases:
            v = f(*args)
            print(name, " ".join(fmt(a) for a in args), "==>", v if v == "error" else fmt(v))
