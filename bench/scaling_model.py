#!/usr/bin/env python3
"""Scaling table and a 64-node projection for arrc_bench_distributed.

usage: scaling_model.py ranks1.txt ranks2.txt [ranksP.txt...] [--alpha-us 5] [--net-gbs 25]

Reads the `RESULT {...}` and `COLL {...}` lines the benchmark prints (one
file per rank count) and writes markdown: the measured strong and weak
scaling (efficiency: strong T1 / (P * TP), weak T1 / TP), then a projection to
64 nodes of one GPU each from a model:

  T(P) = compute(P) + sum over the collectives of one call of
         steps(P) * alpha + wire_bytes(P) / net + staged_bytes(P) / stage

* compute(P): the 1-rank time of the distributed call (T1) times the share of
  the work of one rank (strong: 1/P; weak: 1), i.e. ideal local scaling,
  plus, for sort and group-by, the second local sort (measured on 2 ranks as
  what exceeds T1 in weak scaling minus the modelled communication).
* alpha, net: the network between nodes, ASSUMED (not measured here: the
  device machine is one host): --alpha-us per message step (default 5 us)
  and --net-gbs per link (default 25 GB/s, a 200 Gb/s InfiniBand HDR port).
* stage: device <-> host staging of every collective (no GPU-aware MPI),
  MEASURED: the bytes a 2-rank `replicate` stages divided by its time (an
  upper bound on its cost, as it includes the shared-memory MPI copy).
* the collectives of one call per program (docs/distributed.md):
  bs: none besides the error agreement (one small allreduce);
  kmeans: per iteration two MPI_Reduce_scatter (k and k*d bins), the
  centres gathered (k*d doubles), a few rows of the sums;
  nbody: the bodies gathered (28 n bytes, MPI_Allgatherv);
  sort: regular samples and an MPI_Alltoallv of (P-1)/P of the rank's keys;
  groupby: as sort with 8-byte elements, plus small allgathers.
Ring algorithms: allgather / reduce-scatter of m bytes in all take (P-1)
steps moving (P-1)/P m per rank; all-to-all takes P-1 steps.
"""
import json
import math
import sys

K, D, ITER = 10, 20, 10


def parse(paths):
    results, colls = [], []
    for p in paths:
        for line in open(p):
            if line.startswith("RESULT "):
                results.append(json.loads(line[7:]))
            elif line.startswith("COLL "):
                colls.append(json.loads(line[5:]))
    return results, colls


def comm(prog, n, P, alpha, net, stage):
    """Seconds of communication of one call on P ranks (model above)."""
    if P == 1:
        return 0.0
    sync = 2 * math.log2(P) * alpha  # the error agreement of the call (allreduce)
    ring = lambda m: (P - 1) * alpha + (P - 1) / P * m / net
    if prog == "bs":
        return sync
    if prog == "kmeans":
        per = ring(K * 4) + ring(K * D * 8) + ring(K * D * 8) + (P - 1) * alpha
        staged = (K * 4 + 2 * K * D * 8) * 2 / stage
        return ITER * (per + staged + 6 * sync) + sync
    if prog == "nbody":
        m = 28 * n
        return ring(m) + (m / P + m) / stage + sync
    if prog in ("sort", "groupby"):
        b = (4 if prog == "sort" else 8) * n / P  # one rank's elements
        alltoall = (P - 1) * alpha + (P - 1) / P * b / net
        samples = ring(16 * P * 24)
        small = 6 * sync if prog == "groupby" else 0
        return alltoall + samples + 2 * b / stage + small + sync
    return sync


def main():
    args = sys.argv[1:]
    alpha, net = 5e-6, 25e9
    paths = []
    i = 0
    while i < len(args):
        if args[i] == "--alpha-us":
            alpha = float(args[i + 1]) * 1e-6
            i += 2
        elif args[i] == "--net-gbs":
            net = float(args[i + 1]) * 1e9
            i += 2
        else:
            paths.append(args[i])
            i += 1
    results, colls = parse(paths)
    if not results:
        print("no RESULT lines in", " ".join(paths))
        return 1
    by = {}
    for r in results:
        by[(r["program"], r["mode"], r["ranks"])] = r
    progs = []
    for r in results:
        if r["program"] not in progs:
            progs.append(r["program"])
    ranks = sorted({r["ranks"] for r in results})
    print("### Measured scaling\n")
    print("| program | mode | ranks | n | time ms | efficiency | single-device ms (1 rank) |")
    print("|---|---|---|---|---|---|---|")
    for p in progs:
        for mode in ("strong", "weak"):
            base = by.get((p, mode, 1))
            for P in ranks:
                r = by.get((p, mode, P))
                if not r:
                    continue
                eff = ""
                if base:
                    t1, tp = base["median_ms"], r["median_ms"]
                    e = t1 / (P * tp) if mode == "strong" else t1 / tp
                    eff = "%.0f%%" % (100 * e)
                plain = "%.2f" % r["plain_ms"] if r.get("plain_ms", -1) > 0 else ""
                print("| %s | %s | %d | %d | %.2f | %s | %s |" % (p, mode, P, r["n"], r["median_ms"], eff, plain))
    # staging rate from the largest 2-rank replicate: D2H of half, H2D of all
    stage = None
    reps = [c for c in colls if c["name"].startswith("replicate") and c["ranks"] == 2]
    if reps:
        c = max(reps, key=lambda c: c["bytes"])
        stage = 1.5 * c["bytes"] / (c["median_ms"] * 1e-3)
    if stage is None:
        print("\n(no 2-rank collectives measured: no projection)")
        return 0
    print("\n### Model: projection to 64 nodes (one GPU each)\n")
    print("Assumed network: %.1f us per message step, %.0f GB/s per link; measured device<->host staging: "
          "%.1f GB/s (2-rank replicate of %.0f MB)." % (alpha * 1e6, net / 1e9, stage / 1e9, c["bytes"] / 1e6))
    print("\n| program | mode | " + " | ".join("P=%d" % P for P in (2, 4, 8, 16, 32, 64)) + " |")
    print("|---|---|" + "---|" * 6)
    for p in progs:
        for mode in ("strong", "weak"):
            base = by.get((p, "strong", 1))
            if not base:
                continue
            t1 = base["median_ms"] * 1e-3
            n1 = base["n"]
            # what two ranks measured beyond the model: a constant extra per call
            # (the second local sort, window copies...), scaled with the rank's work
            extra = 0.0
            m2 = by.get((p, "weak", 2))
            if m2:
                extra = max(0.0, m2["median_ms"] * 1e-3 - t1 - comm(p, m2["n"], 2, alpha, net, stage)) / t1
            cells = []
            for P in (2, 4, 8, 16, 32, 64):
                if mode == "weak":
                    n = int(n1 * math.sqrt(P)) if p == "nbody" else n1 * P
                    share = 1.0
                else:
                    n = n1
                    share = 1.0 / P
                tp = t1 * share * (1 + extra) + comm(p, n, P, alpha, net, stage)
                e = t1 / (P * tp) if mode == "strong" else t1 / tp
                cells.append("%.0f%%" % (100 * e))
            print("| %s | %s | %s |" % (p, mode, " | ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
