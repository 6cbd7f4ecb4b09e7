#!/usr/bin/env python3
"""Independent reference for the expected values of
test/e2e/programs/fuse_expand.arr and fuse_hist.arr (plain Python loops, no
arrc involved). Prints one `name args ==> value` line per run line; the
values in those files were pasted from this output.

usage: python3 fuse_reference.py
"""
from refcommon import fmt, i32  # noqa: F401 (shared helpers)


# ---------------------------------------------------------------- fuse_expand.arr
def pyth(n):
    return sum(1 for x in range(1, n) for y in range(x, n) for z in range(y, x + y)
               if z < n and x * x + y * y == z * z)


def triples(n):
    return [(x, y, z) for x in range(1, n) for y in range(x, n) for z in range(y, x + y)
            if z < n and x * x + y * y == z * z]


def pythf(n):
    return sum(1 for x in range(1, n) for y in range(x, n) if (x + y) % 3 != 0
               for z in range(y, x + y) if z < n and x * x + y * y == z * z)


def wfilt(n):
    return float(sum(x * 0.5 + z for x in range(n) for y in range(x) if (x * y) % 3 == 1
                     for z in range(y, x)))


def wsum(n):
    a = [(i % 7) * 0.5 for i in range(n)]
    return float(sum(a[i] * float(j) for i in range(n) for j in range(i)))


def lsum(n):
    return sum(x * y for x in range(n) for y in range(x, n))


def best(n):
    acc = (0, -1)
    for x in range(n):
        for y in range(x):
            e = (x * 100 + y, (x * y) % 17)
            acc = acc if acc[1] >= e[1] else e
    return acc


def evens(n):
    return [x * 10 + y for x in range(n) for y in range(x) if (x + y) % 2 == 0]


def pairs(n):
    return [(x, y) for x in range(1, n) for y in range(x, n) if (x * y) % 3 == 1]


def cnt(n):
    return len(pairs(n))


def fc(xs):
    return sum(1 for x in xs if (x + 15) % 20 == 0)


def fcbig(n):
    return sum(1 for x in range(n) if i32(x * 7 + 15) % 20 == 0)


def mf(n):
    return [2 * x * y for x in range(n) for y in range(x) if y % 2 == 1]


def safe(xs, idx):
    return [xs[i] for i in idx if 0 <= i < len(xs)]


def ff(xs, idx):
    return [i for i in idx if 0 <= i < len(xs) and xs[i] > 1]


# ---------------------------------------------------------------- fuse_hist.arr
def stats(ids, X, k):
    counts = [0] * k
    sx = [0.0] * k
    sy = [0.0] * k
    for i in range(len(ids)):
        if not 0 <= ids[i] < k:
            continue
        counts[ids[i]] += 1
        sx[ids[i]] += X[i][0]
        sy[ids[i]] += X[i][1] * 2.0
    return (counts, sx, sy)


def statsgen(n, k):
    ids = [(i * 3 + i // 4) % k for i in range(n)]
    X = [[float(i % 5), float(i % 3) * 0.25] for i in range(n)]
    return stats(ids, X, k)


def ihist(a, k):
    h1 = [0] * k
    h2 = [0] * k
    h3 = [0] * k
    for x in a:
        b = x % k
        h1[b] += 1
        h2[b] = max(h2[b], x * x)
        h3[b] += x
    return (h1, h2, h3)


def kstep(P, C):
    k, d = len(C), len(P[0])
    ids = []
    for p in P:
        ds = [sum((p[j] - c[j]) * (p[j] - c[j]) for j in range(d)) for c in C]
        ids.append(min(range(k), key=lambda c: (ds[c], c)))
    counts = [0] * k
    sums = [0.0] * (k * d)
    for i, p in enumerate(P):
        counts[ids[i]] += 1
        for j in range(d):
            sums[ids[i] * d + j] += p[j]
    return (ids, counts, sums)


def kmeans(P, C, iters):
    k, d = len(C), len(P[0])
    for _ in range(iters):
        ids, counts, sums = kstep(P, C)
        C = [[C[c][j] if counts[c] == 0 else sums[c * d + j] / counts[c] for j in range(d)] for c in range(k)]
    return C


def kgen(M, d, k):
    P = [[float((i * 13 + j * 7) % 17) for j in range(d)] for i in range(M)]
    C = [[float((c * 5 + j * 3) % 17) for j in range(d)] for c in range(k)]
    return P, C


def kcheck(M, d, k):
    P, C = kgen(M, d, k)
    ids, counts, sums = kstep(P, C)
    return (sum(ids), counts, sum(sums), sums[:d])


def scat(n):
    dest = [0] * n
    for x in range(n):
        if x * 3 < n:
            dest[x * 3] = x * 2
    return dest


def flres(A):
    return [x + 1.0 for r in A for x in r]


def flscat(A, idx):
    vals = [x * 2.0 for r in A for x in r]
    dest = [0.0] * len(idx)
    for k, i in enumerate(idx):
        if 0 <= i < len(dest):
            dest[i] = vals[k]
    return dest


if __name__ == "__main__":
    for n in (1, 30, 100, 300):
        print("pyth", n, "==>", fmt(pyth(n)))
    for n in (1, 30):
        print("triples", n, "==>", fmt(triples(n)))
    for n in (1, 30, 300):
        print("pythf", n, "==>", fmt(pythf(n)))
    for n in (0, 1, 12, 200):
        print("wfilt", n, "==>", fmt(wfilt(n)))
    for n in (0, 10, 1000):
        print("wsum", n, "==>", fmt(wsum(n)))
    for n in (0, 7, 2000):
        print("lsum", n, "==>", fmt(lsum(n)))
    for n in (0, 5, 9):
        print("best", n, "==>", fmt(best(n)))
    for n in (0, 6):
        print("evens", n, "==>", fmt(evens(n)))
    print("pairs", 8, "==>", fmt(pairs(8)))
    for n in (0, 8, 500):
        print("cnt", n, "==>", fmt(cnt(n)))
    print("fc [5, 25, 45, 1, 2, 3, 65] ==>", fmt(fc([5, 25, 45, 1, 2, 3, 65])))
    print("fcbig", 100000, "==>", fmt(fcbig(100000)))
    print("mf", 7, "==>", fmt(mf(7)))
    print("safe [10, 20] [0, 5, 1, -3] ==>", fmt(safe([10, 20], [0, 5, 1, -3])))
    print("ff [1, 5, 2] [0, 9, 1, 2, -1, 1] ==>", fmt(ff([1, 5, 2], [0, 9, 1, 2, -1, 1])))
    ids = [0, 2, 1, 0, 5, -1, 2, 2]
    X = [[1.0, 0.5], [2.0, 1.5], [3.0, 2.5], [4.0, 3.5], [5.0, 4.5], [6.0, 5.5], [7.0, 6.5], [8.0, 7.5]]
    print("stats", fmt(ids), fmt(X), 3, "==>", fmt(stats(ids, X, 3)))
    print("statsgen 100000 7 ==>", fmt(statsgen(100000, 7)))
    print("ihist [3, 8, 5, 12, 7, 1, 0] 4 ==>", fmt(ihist([3, 8, 5, 12, 7, 1, 0], 4)))
    P = [[0.0, 0.0], [1.0, 1.0], [9.0, 9.0], [10.0, 10.0], [0.0, 1.0]]
    C = [[0.0, 0.5], [9.5, 9.5], [100.0, 100.0]]
    print("kstep", fmt(P), fmt(C), "==>", fmt(kstep(P, C)))
    print("kcheck 10000 20 10 ==>", fmt(kcheck(10000, 20, 10)))
    P = [[0.0, 0.0], [1.0, 1.0], [9.0, 9.0], [10.0, 10.0], [0.0, 1.0], [5.0, 6.0]]
    C = [[0.0, 0.5], [9.5, 9.5], [100.0, 100.0]]
    print("kmeans", fmt(P), fmt(C), 3, "==>", fmt(kmeans(P, C, 3)))
    print("scat 10 ==>", fmt(scat(10)))
    A = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    print("flres", fmt(A), "==>", fmt(flres(A)))
    print("flscat", fmt(A), fmt([5, 4, 3, 2, 1, 0]), "==>", fmt(flscat(A, [5, 4, 3, 2, 1, 0])))
