#!/usr/bin/env python3
"""Independent reference for test/e2e/programs/nested_*.arr (plain Python,
no arrc involved): every export of those files written again with Python
lists. Prints the `// in:` / `// out:` lines of each test block; the blocks in
the .arr files were pasted from this output.

usage: python3 nested_reference.py            (all blocks)
       python3 nested_reference.py NAME...    (only those exports)
"""
from refcommon import fmt, i32  # noqa: F401 (shared helpers)
import sys


def cdiv(a, b):  # C division (truncates toward zero)
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def cmod(a, b):  # C remainder (sign of the dividend)
    return a - cdiv(a, b) * b


# ---------------------------------------------------------------- inputs
M1 = [[3, -1, 4, 1, 5], [9, 2, 6, 5, 3], [0, -5, 8, 0, 2], [-7, -7, -7, -1, -2], [2, 2, 2, 2, 2]]


def lcg_matrix(rows, cols, seed, lo, hi):
    m, x = [], seed
    for _ in range(rows):
        row = []
        for _ in range(cols):
            x = (x * 1103515245 + 12345) % (1 << 31)
            row.append(lo + x % (hi - lo + 1))
        m.append(row)
    return m


M2 = lcg_matrix(6, 40, 7, -20, 20)  # rows longer than the cost rule's 32


def pos(r):
    return [v for v in r if v > 0]


def nonpos(r):
    return [v for v in r if v <= 0]


# ---------------------------------------------------------------- nested_bodies.arr
def second_positive(m):
    return [(p[1] if len(p) > 1 else -1) for p in map(pos, m)]


def per_row_distinct(m):
    return [len(set(r)) for r in m]


def median_pos(m):
    return [(sorted(p)[len(p) // 2] if p else -1) for p in map(pos, m)]


def by_abs_first(m):
    return [sorted(r, key=abs)[0] for r in m]


def largest_pos(m):
    return [(sorted(p, key=lambda v: -v)[0] if p else 0) for p in map(pos, m)]


def last_even(m):
    out = []
    for r in m:
        e = [v for v in r if v % 2 == 0]
        out.append(e[::-1][0] if e else -1)
    return out


def take_drop(m):
    out = []
    for p in map(pos, m):
        out.append(sum(p[:min(2, len(p))]) * 100 + sum(p[min(1, len(p)):]))
    return out


def cat_at(m, k):
    return [(pos(r) + nonpos(r))[k] for r in m]


def cat_first(m):
    return [(nonpos(r) + pos(r))[0] for r in m]


def scan_at(m, k):
    out = []
    for p in map(pos, m):
        s, acc = [], 0
        for v in p:
            acc += v
            s.append(acc)
        out.append(s[min(k, len(s) - 1)] if s else -1)
    return out


def scan_max_last(m):
    out = []
    for r in m:
        acc, s = -(1 << 31), []
        for v in nonpos(r):
            acc = max(acc, v)
            s.append(acc)
        out.append(s[-1] if s else 0)
    return out


def hist4(m):
    out = []
    for p in map(pos, m):
        h = [0] * 4
        for v in p:
            h[v % 4] += 1
        out.append(h[0] * 1000 + h[1] * 100 + h[2] * 10 + h[3])
    return out


def hist_bins(m):
    out = []
    for r in m:
        n = max(r) + 1 if max(r) > 0 else 0
        h = [0] * max(n, 0)
        for v in r:
            if 0 <= v < n:
                h[v] += v
        out.append(sum(b * (i + 1) for i, b in enumerate(h)) * 100 + len(h))
    return out


def rbk(m):
    out = []
    for p in map(pos, m):
        d = {}
        for v in p:
            d[v % 3] = d.get(v % 3, 0) + v
        ks = sorted(d)
        out.append(len(ks) * 10000 + (ks[0] * 1000 + d[ks[0]] if ks else 0) + (d[ks[-1]] if ks else 0))
    return out


def part(m):
    out = []
    for r in m:
        a = [v for v in r if v > 2]
        b = [v for v in r if not v > 2]
        out.append(len(a) * 100 + (b[-1] if b else 99))
    return out


def zipped(m):
    return [sum(a * b for a, b in zip(p, sorted(p))) for p in map(pos, m)]


def unzipped(m):
    out = []
    for r in m:
        ps = [(v, v * v) for v in r if v > 1]
        a = [x for x, _ in ps]
        b = [y for _, y in ps]
        out.append(b[0] - a[-1] if b else 0)
    return out


def expand_comp(m):
    out = []
    for p in map(pos, m):
        e = [y for x in p for y in range(x)]
        out.append(e[len(e) // 2] if e else -1)
    return out


def expand_intr(m):
    out = []
    for p in map(pos, m):
        e = [x * 10 + j for x in p for j in range(x)]
        out.append(e[len(e) // 2] if e else -1)
    return out


def expand_red(m):
    return [sum(sum(range(x)) for x in p) for p in map(pos, m)]


def scattered(m):
    out = []
    for p in map(pos, m):
        n = len(p)
        d = [0] * n
        for j in range(n):
            d[n - 1 - j] = p[j]
        out.append(d[0] * 100 + d[-1] if n else -1)
    return out


def gathered(m):
    out = []
    for p in map(pos, m):
        out.append(p[-1] * 100 + p[0] if p else -1)
    return out


def seg_ops(m):
    out = []
    for p in map(pos, m):
        flags = [v % 2 == 0 for v in p]
        sc, acc = [], 0
        red = []
        for j, v in enumerate(p):
            if j == 0 or flags[j]:
                acc = 0
                red.append(0)
            acc += v
            red[-1] += v
            sc.append(acc)
        out.append((sc[-1] * 10000 + len(red) * 100 + red[0]) if p else -1)
    return out


def stats(m):
    out = []
    for p in map(pos, m):
        if not p:
            out.append(-1)
            continue
        c = sum(1 for v in p if v > 3)
        an = any(v > 8 for v in p)
        al = all(v < 9 for v in p)
        prod = 1
        for v in p:
            prod = i32(prod * v)
        amin = p.index(min(p))
        amax = p.index(max(p))
        out.append(i32(c + 10 * an + 100 * al + 1000 * amin + 10000 * amax + 100000 * (max(p) - min(p))
                       + sum(p) + cmod(prod, 7)))
    return out


def rotated(m):
    out = []
    for p in map(pos, m):
        n = len(p)
        out.append(p[(0 + 1) % n] * 10 + p[(n - 1 + 1) % n] if n else -1)
    return out


def reshaped(m):
    out = []
    for p in map(pos, m):
        h = len(p) // 2
        q = [[p[i * h + j] for j in range(h)] for i in range(2)]
        t = [[q[i][j] for i in range(2)] for j in range(h)]
        f = [x for row in t for x in row]
        out.append(sum(x * (i + 1) for i, x in enumerate(f)))
    return out


def segm_lib(m):
    out = []
    for p in map(pos, m):
        reps = [v % 3 for v in p]
        ri = [i for i in range(len(reps)) for _ in range(reps[i])]
        flags = [v % 2 == 1 for v in p]
        si, c = [], 0
        for j, f in enumerate(flags):
            c = 0 if (f or j == 0) else c + 1
            si.append(c)
        out.append(len(ri) * 1000 + (ri[-1] * 100 if ri else 0) + (si[-1] if si else 0))
    return out


def linalg(m):
    out = []
    for p in map(pos, m):
        d = sum(a * b for a, b in zip(p, p[::-1]))
        o = sum(a * b for a in p for b in p)
        mv = sum(a * a for a in p)
        out.append(d * 10000 + o * 10 + (mv % 10))
    return out


def norms(m):
    import math
    return [math.sqrt(float(sum(v * v for v in p))) for p in map(pos, m)]


# ---------------------------------------------------------------- nested_loops.arr
def doubling(ns):
    out = []
    for n in ns:
        a = [1]
        for _ in range(n):
            a = a + a
        out.append(len(a))
    return out


def growing(ns):
    out = []
    for n in ns:
        a = [n]
        for i in range(n):
            a = a + [v + i for v in a]
        out.append(sum(a))
    return out


def reads_element(xs):
    out = []
    for x in xs:
        a = [x]
        for j in range(max(cmod(x, 4), 0)):
            a = a + [j * x] + [v * x for v in a[:1]]
        out.append(sum(a) * 100 + len(a))
    return out


def worklist(m):
    out = []
    for r in m:
        w = list(r)
        while len(w) > 0 and w[0] > 1:
            w = [cdiv(v, 2) for v in w]
            w = [v for v in w if v > 1]
        out.append(len(w) * 100 + (w[0] if w else -1))
    return out


def steps(xs):
    out = []
    for x in xs:
        a, k = list(range(x)), 0
        while len(a) > 1:
            a = [v + 1 for v in a[1:]]
            a = [v for v in a if v % 2 == 0]
            k += 1
        out.append(k)
    return out


def collatz_lens(xs):
    out = []
    for x in xs:
        t = [x]
        while t[-1] > 1:
            v = t[-1]
            t = t + [v // 2 if v % 2 == 0 else 3 * v + 1]
        out.append(len(t) * 1000 + max(t))
    return out


def sort_rounds(m):
    out = []
    for r in m:
        a = list(r)
        for i in range(len(r) % 3 + 1):
            a = sorted(a)[1:] + [i]
        out.append(sum(x * (j + 1) for j, x in enumerate(a)))
    return out


def host_double(n):
    a = [1]
    for _ in range(n):
        a = a + a
    return a


def host_worklist(xs):
    w = list(xs)
    rounds = 0
    while len(w) > 0:
        w = [cdiv(v, 3) for v in w if v > 2]
        rounds += 1
    return rounds


# ---------------------------------------------------------------- nested_loops_fold.arr
def fold_loop(m):
    out = []
    for r in m:
        s = 0
        for k in r:
            a = [k]
            for _ in range(max(cmod(k, 4), 0)):
                a = a + a
            s += len(a)
        out.append(s)
    return out


def fold_loop_vals(m):
    out = []
    for i, r in enumerate(m):
        s = 0
        for k in r:
            a = [k]
            for j in range(max(cmod(k, 3), 0)):
                a = a + [v + j + i for v in a]
            s += sum(a)
        out.append(i32(s))
    return out


def fold_worklist(m):
    out = []
    for r in m:
        s = 0
        for k in r:
            w = list(r)
            while len(w) > 0 and w[0] != k:
                w = w[1:]
            s += len(w) * len(w)
        out.append(s)
    return out


def fold_rows(m):
    out = []
    for r in m:
        s = 0
        for k in r:
            g = [[k, 1]]
            for j in range(max(cmod(k, 3), 0)):
                g = g + [[j, k]]
            s += len(g) * 10 + g[-1][1]
        out.append(s)
    return out


def grow_rows(ns):
    out = []
    for n in ns:
        g = [[n, 1]]
        for j in range(max(cmod(n, 5), 0)):
            g = g + [[j, n * j]]
        out.append(sum(row[0] * 10 + row[1] for row in g) * 100 + len(g) * 10 + len(g[0]))
    return out


def grow_cols(m):
    out = []
    for i, row in enumerate(m):
        g = [[v] for v in row]          # n x 1
        for j in range(i + 1):
            col0 = [g[r][0] for r in range(len(g))]
            g = [g[r] + [col0[r] * (j + 2)] for r in range(len(g))]
        out.append(sum(sum(g[r]) * (r + 1) for r in range(len(g))) * 10 + len(g[0]))
    return out


def rows_while(xs):
    out = []
    for x in xs:
        g, c = [[x, 0]], 0
        while g[-1][0] > 1:
            g = g + [[cdiv(g[-1][0], 2), c + 1]]
            c += 1
        out.append(sum(r[0] + r[1] for r in g) * 100 + c)
    return out


def host_rows(n):
    g = [[1, 2]]
    for j in range(n):
        g = g + [[j, j * j]]
    return g


def host_cols(n):
    g = [[1], [2]]
    for j in range(n):
        g = [g[0] + [j], g[1] + [2 * j]]
    return g


def via_map(m):
    return [sum((2 + max(cmod(k, 3), 0)) * k for k in r) for r in m]


def via_filter(m):
    return [sum(2 ** max(cmod(k, 4), 0) for k in r if k > 0) for r in m]


def via_loop(xs):
    out = []
    for x in xs:
        s = 0
        for j in range(max(cmod(x, 4), 0)):
            a = [s]
            for _ in range(max(cmod(s + j, 3), 0)):
                a = a + a
            s = s + len(a)
        out.append(s)
    return out


# the predicate of a filter runs a loop whose state varies (issue 13 item 5)
def filt_pred(m):
    return [sum(1 for k in r if 2 ** max(cmod(k, 3), 0) > 2) for r in m]


def filt_pred_vals(m):
    out = []
    for i, r in enumerate(m):
        p = [k for k in r if k + i * max(cmod(k, 3), 0) > 0]
        out.append(sum(p) * 10 + (p[0] if p else -100))
    return out


def filt_pred_seq(m):
    out = []
    for r in m:
        p = [k for k in r if k != 0 and k % 2 != 0 and len([k] * (1 + max(cmod(k, 4), 0))) > 2]
        out.append(len(p) * 1000 + sum(p))
    return out


# a zip branch with several generators binding an array (a row)
def zip_rows(m, ys):
    return [sum(x + y for x, y in zip(r, ys)) for r in m]


def zip_rows_len(m):
    out = []
    for r in m:
        xs = pos(r) + pos(m[0])
        out.append(sum(x * len(r) + y for x, y in zip(xs, xs)))
    return out


def zip_rows_let(m, ys):
    return [sum(x * y for x, y in zip(r[::-1], ys)) for r in m]


# a sort key, an expand's size, a comprehension binding rows: each runs a loop
# whose state varies (issue 13 item 5)
def sort_key(m):
    out = []
    for r in m:
        srt = sorted(r, key=lambda k: 2 ** max(cmod(k, 4), 0) * 100 - k)
        out.append(i32(sum(v * (j + 1) for j, v in enumerate(srt)) * 1000 + srt[0]))
    return out


def expand_size(m):
    return [sum(k * j + 1 for k in r for j in range(2 ** max(cmod(k, 3), 0))) for r in m]


def rows_comp(m):
    return [sum(2 ** max(cmod(x, 3), 0) * len(r) for r in (row, m[0]) for x in r) for row in m]


def expand_get(m):
    return [sum(2 ** max(j + cmod(k, 2), 0) + k for k in r for j in range(max(cmod(k, 3) + 1, 0))) for r in m]


# a map over a filter's result, count / any / all / partition (comprehension
# filters), and consumers of lifted elements (scan, hist, reduce_by_key)
def lens3(k):
    return 2 ** max(cmod(k, 3), 0)


def map_filt(m):
    return [sum(lens3(k) for k in r if k > 0) for r in m]


def count_loop(m):
    return [sum(1 for k in r if lens3(k) > 2) for r in m]


def any_all(m):
    return [(1 if any(lens3(k) > 2 for k in r) else 0) + (10 if all(2 + max(cmod(k, 3), 0) < 4 for k in r) else 0)
            for r in m]


def part_loop(m):
    out = []
    for r in m:
        p = [k for k in r if lens3(k) > 2]
        q = [k for k in r if not lens3(k) > 2]
        out.append(len(p) * 100 + len(q) + (p[0] * 10000 if p else 0))
    return out


def both_lift(m):
    return [sum(2 ** max(cmod(k, 4), 0) for k in r if lens3(k) > 1) for r in m]


def consumers(m):
    out = []
    for r in m:
        ls = [lens3(k) for k in r]
        h1 = sum(1 for v in ls if v % 3 == 1)
        out.append(sum(ls) * 10000 + h1 * 100 + len(set(ls)))
    return out


def repl_filter(m):
    out = []
    for i, r in enumerate(m):
        p = [x for x in r if x > 0]
        out.append(sum(p) * (i + 1) * 100 + len(p))
    return out


def op_captures(xs):
    red = max([-1000] + xs)
    sc, a = [], 0
    for x in xs:
        a = i32(a + x)
        sc.append(a)
    h = [0, 0, 0]
    for x in xs:
        k = cmod(x, 3)
        if 0 <= k < 3:  # out-of-range bins ignored
            h[k] = max(h[k], x)
    return (red, sc, h)


class Irregular(Exception):
    pass


def regular(a):  # a nested list must be rectangular (else arrc's runtime error)
    def shape(x):
        if not isinstance(x, list):
            return ()
        shapes = {shape(y) for y in x}
        if len(shapes) > 1:
            raise Irregular
        return (len(x),) + (shapes.pop() if shapes else ())
    shape(a)
    return a


def rank3_filter(m):
    r = [[[x + j for x in row if x > 0] for j in range(2)] for row in m]
    try:
        return regular(r)
    except Irregular:
        return "error: irregular array"


def rank4_filter(m):
    r = [[[[x * k for x in row if x > 0] for k in range(2)] for _ in range(2)] for row in m]
    try:
        return regular(r)
    except Irregular:
        return "error: irregular array"


def positions_by_value(m):
    return [(i, v, k) for i, row in enumerate(m) for v in sorted(set(row)) for k in range(len(row)) if row[k] == v]


def bubble_rows(m):
    return [sorted(row) for row in m]


# ---------------------------------------------------------------- nested_lifted_ops.arr
def lens2(b):  # length(loop (w = [b]) for _j < b % 3 do w ++ w)
    return 2 ** max(cmod(b, 3), 0)


def op_add(a, b):
    return i32(a + lens2(b))


def op_dbl(a, b):
    return i32(a * 2 + lens2(b))


def fold(op, ne, xs):
    a = ne
    for x in xs:
        a = op(a, x)
    return a


def scanl(op, ne, xs):
    a, r = ne, []
    for x in xs:
        a = op(a, x)
        r.append(a)
    return r


def hist3(op, ne, n, idx, vs):
    h = [ne] * n
    for k, v in zip(idx, vs):
        if 0 <= k < n:
            h[k] = op(h[k], v)
    return h


def rbk_ref(op, ne, ks, vs):
    d = {}
    for k, v in zip(ks, vs):
        d[k] = op(d.get(k, ne), v)
    keys = sorted(d)
    return keys, [d[k] for k in keys]


def segs(f, xs):
    out = []
    for t, (fl, x) in enumerate(zip(f, xs)):
        if t == 0 or fl:
            out.append([])
        out[-1].append(x)
    return out


def op_reduce(xs):
    return fold(op_add, 0, xs)


def op_reduce_rows(m):
    return [fold(op_add, 0, r) for r in m]


def op_reduce_order(m):
    out = []
    for i, r in enumerate(m):
        def op(a, b):
            w = [b, cmod(a, 2)]
            for _ in range(max(cmod(b, 3), 0)):
                w = w + [i]
            return i32(a * 3 + len(w) - 2)
        out.append(fold(op, 1, r))
    return out


def op_scan(xs):
    return scanl(op_add, 0, xs)


def op_scan_rows(m):
    return [sum(s) * 100 + s[-1] for s in (scanl(op_add, 0, r) for r in m)]


def op_hist(xs):
    return hist3(op_add, 0, 3, [cmod(x, 4) for x in xs], xs)


def op_hist_rows(m):
    out = []
    for r in m:
        h = hist3(op_add, 0, 3, [cmod(x, 4) for x in r], r)
        out.append(h[0] * 10000 + h[1] * 100 + h[2])
    return out


def op_rbk(xs):
    k, v = rbk_ref(op_dbl, 1, [cmod(x, 4) for x in xs], xs)
    return (k, v)


def op_rbk_rows(m):
    out = []
    for r in m:
        k, v = rbk_ref(op_dbl, 1, [cmod(x, 4) for x in r], r)
        out.append(i32(len(k) * 1000000 + sum(k) * 1000 + cmod(i32(sum(v)), 1000)))
    return out


def op_segscan(f, xs):
    return [a for s in segs(f, xs) for a in scanl(op_dbl, 1, s)]


def op_segred(f, xs):
    return [fold(op_dbl, 1, s) for s in segs(f, xs)]


def op_seg_rows(m):
    out = []
    for r in m:
        f = [x < 0 for x in r]
        red = [fold(op_add, 0, s) for s in segs(f, r)]
        sc = [a for s in segs(f, r) for a in scanl(op_add, 0, s)]
        out.append(len(red) * 10000 + sum(red) * 100 + cmod(sum(sc), 100))
    return out


def op_expred(xs):
    return [fold(op_dbl, 1, [x + j for j in range(max(cmod(x, 4), 0))]) for x in xs]


def op_expred_rows(m):
    return [sum(op_expred(r)) for r in m]


def gen_loop_src(xs):
    return [y for x in xs for y in [x] * 2 ** max(cmod(x, 3), 0)]


def grow_i(x, i):  # loop (a = [x]) for _j < x % 3 do a ++ [i]
    return [x] + [i] * max(cmod(x, 3), 0)


def gen_loop_src_rows(m):
    return [sum(y for x in r for y in grow_i(x, i)) for i, r in enumerate(m)]


def gen_loop_src_idx(m):
    out = []
    for i, r in enumerate(m):
        ys = [y * 10 + x for x in r if x > 0 for y in grow_i(x, i) if y != 2]
        out.append(len(ys) * 1000 + (ys[1] if len(ys) > 1 else -1))
    return out


def filt_loop_gen(xs):
    return [x + y for x in xs if lens2(x) > 2 for y in range(x)]


def filt_loop_gen_rows(m):
    return [sum(x * y + cmod(x, 2) for x in r if lens2(x) > 2 for y in range(x) if y % 2 == 0) for r in m]


def gen_loop_three(m):
    return [sum(x * 100 + y * 10 + z for x in r for y in range(max(cmod(x, 3), 0))
                for z in [y] * 2 ** max(cmod(x, 2), 0)) for r in m]


def rows_filt_gen(m):
    return [sum(v for r in m if lens2(r[0] + i) > 1 for v in r) * 10 + i for i in range(3)]


def zip_loop_src(m):
    out = []
    for i, r in enumerate(m):
        a = [x for x in r for _ in range(lens2(x))]
        b = [y + i for y in r for _ in range(lens2(y))]
        out.append(sum(p * 10 + q for p, q in zip(a, b)))
    return out


def zip_loop_filt(m):
    out = []
    for i, r in enumerate(m):
        a = [(x, w) for x in r if x > 0 for w in grow_i(x, i)]
        b = [k for k in r if k > 0 for _ in range(1 + max(cmod(k, 3), 0))]
        assert len(a) == len(b)
        out.append(sum(x * 1000 + w * 10 + q for (x, w), q in zip(a, b)))
    return out


def lift_in_lift(xs):
    return [sum(2 ** (j + x) for j in range(2)) for x in xs]


def worklist_steps(w):  # loop while w non-empty: w = [y | y in w, y > min(w)], counting steps
    c = 0
    while w:
        m = min(w)
        w = [y for y in w if y > m]
        c += 1
    return c


def lift_in_lift_while(xs):
    return [sum(worklist_steps(list(range(x + j))) for j in range(3)) for x in xs]


def const_state_lift(xs):
    return [1 + sum(2 ** x for j in range(2)) for x in xs]


def nested_head_loop(n):
    return [[1 + cmod(j, 3) + i * 10 for j in range(n)] for i in range(n)]


def host_sort_key(xs):
    return sorted(xs, key=lens2)


def host_expand_get(xs):
    return [x * 100 + 1 + j + cmod(x, 4) for x in xs for j in range(max(cmod(x, 3), 0))]


CASES = {
    "second_positive": [(M1,), (M2,)],
    "per_row_distinct": [(M1,), (M2,)],
    "median_pos": [(M1,), (M2,)],
    "by_abs_first": [(M1,), (M2,)],
    "largest_pos": [(M1,), (M2,)],
    "last_even": [(M1,), (M2,)],
    "take_drop": [(M1,), (M2,)],
    "cat_at": [(M1, 3), (M2, 21)],
    "cat_first": [(M1,), (M2,)],
    "scan_at": [(M1, 2), (M2, 15)],
    "scan_max_last": [(M1,), (M2,)],
    "hist4": [(M1,), (M2,)],
    "hist_bins": [(M1,), (M2,)],
    "rbk": [(M1,), (M2,)],
    "part": [(M1,), (M2,)],
    "zipped": [(M1,), (M2,)],
    "unzipped": [(M1,), (M2,)],
    "expand_comp": [(M1,), (M2,)],
    "expand_intr": [(M1,), (M2,)],
    "expand_red": [(M1,), (M2,)],
    "scattered": [(M1,), (M2,)],
    "gathered": [(M1,), (M2,)],
    "seg_ops": [(M1,), (M2,)],
    "stats": [(M1,), (M2,)],
    "rotated": [(M1,), (M2,)],
    "reshaped": [(M1,), (M2,)],
    "segm_lib": [(M1,), (M2,)],
    "linalg": [(M1,), (M2,)],
    "norms": [(M1,), (M2,)],
    "doubling": [([0, 1, 3, 5, 10],)],
    "growing": [([0, 1, 3, 6],)],
    "reads_element": [([0, 1, 2, 3, 5, 6, 7, 9, 13, -4],)],
    "worklist": [([[8, 3, 17, 1], [1, 2, 0, 0], [64, 32, 16, 9]],), (M2,)],
    "steps": [([0, 1, 5, 9, 16, 40],)],
    "collatz_lens": [([1, 2, 3, 6, 7, 27],)],
    "sort_rounds": [(M1,), (M2,)],
    "host_double": [(0,), (4,)],
    "host_worklist": [([1, 2, 30, 100, 7],), ([],)],
    "fold_loop": [(M1,), (M2,)],
    "fold_loop_vals": [(M1,), (M2,)],
    "fold_worklist": [(M1,), (M2,)],
    "fold_rows": [(M1,), (M2,)],
    "grow_rows": [([0, 1, 3, 4, 7, -2, 9],)],
    "grow_cols": [(M1,)],
    "rows_while": [([1, 2, 5, 16, 100, 0, -3],)],
    "host_rows": [(0,), (3,)],
    "host_cols": [(0,), (2,)],
    "via_map": [(M1,), (M2,)],
    "via_filter": [(M1,), (M2,)],
    "via_loop": [([0, 1, 2, 3, 7, 11, -5],)],
    "filt_pred": [(M1,), (M2,)],
    "filt_pred_vals": [(M1,), (M2,)],
    "filt_pred_seq": [(M1,), (M2,)],
    "zip_rows": [(M1, [1, 2, 3, 4, 5]), (M2, list(range(40)))],
    "zip_rows_len": [(M1,), (M2,)],
    "zip_rows_let": [(M1, [1, -2, 3, -4, 5]), (M2, [(j * 7) % 11 - 5 for j in range(40)])],
    "sort_key": [(M1,), (M2,)],
    "expand_size": [(M1,), (M2,)],
    "rows_comp": [(M1,), (M2,)],
    "expand_get": [(M1,), (M2,)],
    "map_filt": [(M1,), (M2,)],
    "count_loop": [(M1,), (M2,)],
    "any_all": [(M1,), (M2,), ([[2, 5], [0, 3], [1, 4]],)],
    "part_loop": [(M1,), (M2,)],
    "both_lift": [(M1,), (M2,)],
    "consumers": [(M1,), (M2,)],
    "repl_filter": [(M1,), (M2,)],
    "op_captures": [([3, 150, -7, 4, 200, 9, 0, 5],), ([5],)],
    "rank3_filter": [([[1, -2, 4], [3, 0, 5]],), ([[1, 2], [3, 0]],), ([[-1, -2], [0, 0]],)],
    "rank4_filter": [([[1, -2], [3, 0]],), ([[1, 2], [3, 0]],)],
    "positions_by_value": [(M1,), ([[2, 2], [0, -1]],)],
    "bubble_rows": [(M1,), (M2,)],
    "op_reduce": [([3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 0, -5, 8, 7],), ([],)],
    "op_reduce_rows": [(M1,), (M2,)],
    "op_reduce_order": [(M1,), (M2,)],
    "op_scan": [([3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 0, -5, 8, 7],), ([],)],
    "op_scan_rows": [(M1,), (M2,)],
    "op_hist": [([3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 0, -5, 8, 7],), ([],)],
    "op_hist_rows": [(M1,), (M2,)],
    "op_rbk": [([3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 0, -5, 8, 7],), ([],)],
    "op_rbk_rows": [(M1,), (M2,)],
    "op_segscan": [([True, False, False, True, True, False, False, False, True, False, False, False, True, False], [3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 0, -5, 8, 7]), ([], [])],
    "op_segred": [([True, False, False, True, True, False, False, False, True, False, False, False, True, False], [3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 0, -5, 8, 7]), ([False, True, True], [4, 5, 6]), ([], [])],
    "op_seg_rows": [(M1,), (M2,)],
    "op_expred": [([3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 0, -5, 8, 7],), ([],)],
    "op_expred_rows": [(M1,), (M2,)],
    "gen_loop_src": [([3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 0, -5, 8, 7],), ([],)],
    "gen_loop_src_rows": [(M1,), (M2,)],
    "gen_loop_src_idx": [(M1,), (M2,)],
    "filt_loop_gen": [([3, -1, 4, 1, 5, 9, 2, 6, 5, 3, 0, -5, 8, 7],), ([],)],
    "filt_loop_gen_rows": [(M1,), (M2,)],
    "gen_loop_three": [(M1,), (M2,)],
    "rows_filt_gen": [(M1,), (M2,)],
    "zip_loop_src": [(M1,), (M2,)],
    "zip_loop_filt": [(M1,), (M2,)],
    "lift_in_lift": [([0, 1, 2, 5, 3],), ([],)],
    "lift_in_lift_while": [([0, 1, 2, 5, 3],)],
    "const_state_lift": [([0, 1, 2, 4],)],
    "nested_head_loop": [(4,), (0,)],
    "host_sort_key": [([1, 2, 3, 4, 5, -4, 7, 8],), ([],)],
    "host_expand_get": [([1, 2, 3, 4, 5, 11],), ([],)],
}


def main():
    names = sys.argv[1:] or list(CASES)
    g = globals()
    for n in names:
        print(f"== {n}")
        for args in CASES[n]:
            print("// in:  " + " ".join(fmt(a) for a in args))
            r = g[n](*args)
            print(("// " + r) if isinstance(r, str) and r.startswith("error:") else "// out: " + fmt(r))


if __name__ == "__main__":
    main()
