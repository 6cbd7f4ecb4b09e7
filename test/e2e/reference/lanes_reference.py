#!/usr/bin/env python3
"""Independent reference for the expected values of
test/e2e/programs/cpu_lanes.arr (plain Python loops, no arrc involved).
Prints one `name args ==> value` line per run line; the values in that file
were pasted from this output.

usage: python3 lanes_reference.py
"""
from refcommon import fmt, i32  # noqa: F401 (shared helpers)


def mm(A, B):
    n = len(A[0]) if A else 0
    p = len(B[0]) if B else 0
    return [[float(sum(A[i][k] * B[k][j] for k in range(n))) for j in range(p)] for i in range(len(A))]


def mm_gen(m, n, p):
    A = [[float((i * 7 + k * 3) % 11) - 5.0 for k in range(n)] for i in range(m)]
    B = [[float((k * 5 + j * 2) % 13) - 6.0 for j in range(p)] for k in range(n)]
    return [[float(sum(A[i][k] * B[k][j] for k in range(n))) for j in range(p)] for i in range(m)]


def nearest(xs, ys):
    out = []
    for x in xs:
        best = None
        for c, y in enumerate(ys):
            d = abs(x - y)
            if best is None or d < best[0]:
                best = (d, c)
        out.append(best[1])
    return out


def above(xs, ys):
    return [sum(x - y if x > y else y * 2 for y in ys) for x in xs]


def tri(xs, ys):
    return [sum(sum(z * y for z in range(x)) for y in ys) for x in xs]


def member(xs, ys):
    return [x in ys for x in xs]


def mm3(A, B):
    c0 = mm(A, B)
    return [[[v * (c + 1) for v in row] for row in c0] for c in range(2)]


A23 = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
B32 = [[1.0, -1.0], [0.5, 2.0], [-3.0, 0.25]]
A32 = [[1.0, 2.0], [-1.0, 0.5], [3.0, -2.0]]
B217 = [[float((j * 3) % 7 - 3) for j in range(17)], [float((j * 5) % 4) - 1.5 for j in range(17)]]
XS = [float(v) for v in [0.5, 3.0, -2.0, 7.25, 1.5, 9.0, 4.0, -6.5, 2.5, 5.5, 8.0, 0.0, 3.5, -1.0, 6.0, 10.5, 2.0]]
YS = [0.0, 2.5, 5.0, -3.0, 8.0]
IX = [(i * 37) % 23 - 9 for i in range(20)]
IY = [-4, 0, 3, 7, 11, -8]
TX = list(range(19))
TY = [1, 2, 3]
MX = [(i * 5) % 11 for i in range(18)]
MY = [1, 4, 9, 10]

if __name__ == "__main__":
    print("mm A23 B32 ==>", fmt(mm(A23, B32)))
    print("mm A32 B217 ==>", fmt(mm(A32, B217)))
    for args in [(5, 4, 37), (1, 3, 16), (4, 2, 32), (2, 0, 3), (5, 3, 257)]:
        print("mm_gen", args, "==>", fmt(mm_gen(*args)))
    print("nearest ==>", fmt(nearest(XS, YS)))
    print("above ==>", fmt(above(IX, IY)))
    print("tri ==>", fmt(tri(TX, TY)))
    print("member ==>", fmt(member(MX, MY)))
    print("mm3 A32 B217 ==>", fmt(mm3(A32, B217)))
    print("inputs:")
    print(" B217", fmt(B217))
    print(" XS", fmt(XS))
    print(" IX", fmt(IX))
    print(" MX", fmt(MX))
