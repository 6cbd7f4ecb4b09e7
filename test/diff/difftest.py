#!/usr/bin/env python3
"""Differential testing of whole programs (docs/reliability.md): random
well-typed Arr programs (arrsmith.py) run through the IR interpreter (the
reference semantics: `arrc run --interpret`, on the IR before and after the
optimisation passes) and compiled on the default OpenCL device (`arrc test`,
PoCL here). Every disagreement is a finding, written with its program to
OUT/findings/.

  difftest.py ARRC OUT [--seed S] [--programs N | --minutes M] [--jobs J]

Exit status 0 when no finding was made. A summary line reports the programs,
exports and cases run, and the exports the compiler rejected as
"unsupported" (limitations it reports with a diagnostic; counted, not findings).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import arrsmith  # noqa: E402

TIMEOUT = 60  # seconds for one interpreter call
# Kept for review, not failures: the lowered IR raised an error that the
# optimised IR (and so the compiled program) does not (dead code dropped).
SOFT = {"passes-drop-error"}


# ---------------------------------------------------------------- values
def parse_value(s):
    """Arr literal text -> nested Python values (floats keep an 'f' flag)."""
    toks = re.findall(r"-?inf f?|-?inff?|-?nanf?|\(|\)|\[|\]|,|true|false|-?[0-9][0-9.e+\-]*[fL]?", s)
    pos = 0

    def val():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t in ("[", "("):
            close = "]" if t == "[" else ")"
            items = []
            while toks[pos] != close:
                items.append(val())
                if toks[pos] == ",":
                    pos += 1
            pos += 1
            return items if t == "[" else tuple(items)
        if t in ("true", "false"):
            return t == "true"
        if t.endswith("L"):
            return int(t[:-1])
        isf = t.endswith("f")
        t = t.rstrip("f")
        if "." in t or "e" in t or "n" in t or "i" in t:
            return ("f" if isf else "d", float(t))
        return int(t)
    return val()


def same(a, b, tol):
    if isinstance(a, tuple) and len(a) == 2 and a[0] in ("f", "d") and isinstance(a[1], float):
        if not (isinstance(b, tuple) and len(b) == 2 and b[0] in ("f", "d")):
            return False
        x, y = a[1], b[1]
        if x != x or y != y:
            return x != x and y != y
        if x in (float("inf"), float("-inf")) or y in (float("inf"), float("-inf")):
            return x == y
        return abs(x - y) <= tol * max(1.0, abs(x), abs(y))
    if isinstance(a, (list, tuple)):
        return type(a) == type(b) and len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))
    return a == b


# ---------------------------------------------------------------- one program
def run(cmd, timeout, env=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def errors_only(text):
    """Diagnostics without the warnings (each with its source line and caret)."""
    out, skip = [], False
    for line in text.split("\n"):
        m = re.match(r"^\S+:\d+:\d+: (error|warning|note)", line)
        if m:
            skip = m.group(1) == "warning"
        if not skip:
            out.append(line)
    return "\n".join(out)


def tolerance_for(ty):
    s = str(ty)
    if "float" in s:
        return 1e-3
    if "double" in s:
        return 1e-6
    return None


def program(args, seed, workdir):
    """Generates, runs and compares one program; returns a result dict."""
    try:
        return program_checked(args, seed, workdir)
    except Exception as e:  # a bug of this script or the generator: reported, the campaign goes on
        import traceback
        return {"seed": seed, "exports": 0, "cases": 0, "unsupported": 0,
                "findings": [{"kind": "harness-error", "seed": seed, "export": None, "case": None,
                              "detail": traceback.format_exc(), "program": ""}]}


def program_checked(args, seed, workdir):
    res = {"seed": seed, "exports": 0, "cases": 0, "unsupported": 0, "findings": []}
    gen = arrsmith.Gen(seed)
    exports = gen.module(args.exports, args.inputs)
    text, spans = arrsmith.render(gen, exports, seed)
    path = os.path.join(workdir, "p%d.arr" % seed)
    arrc = args.arrc

    def finding(kind, detail, export=None, case=None, prog=None):
        res["findings"].append({"kind": kind, "seed": seed, "export": export, "case": case,
                                "detail": errors_only(detail)[-4000:],
                                "program": prog if prog is not None else text})

    # 1. compile: drop the exports the compiler rejects as unsupported
    while exports:
        with open(path, "w") as f:
            f.write(text)
        rc, out, err = run([arrc, path, "--emit=ir", "-o", os.devnull], TIMEOUT)
        if rc == 0:
            break
        if rc == "timeout":
            finding("compile-timeout", "arrc --emit=ir did not finish in %d s" % TIMEOUT)
            return res
        errs = [(int(l) if f == path else -1, m)
                for f, l, m in re.findall(r"^(\S+):(\d+):\d+: error: (.*)$", err, re.M)]
        if not errs or any(not m.startswith("unsupported") for _, m in errs):
            finding("compile-error", err)
            return res
        bad = {name for line, _ in errs for name, (a, b) in spans.items() if a <= line <= b}
        if not bad:
            # reported in the stdlib (an instance): compile each export alone
            for e in exports:
                one, _ = arrsmith.render(gen, [e], seed)
                with open(path, "w") as f:
                    f.write(one)
                if run([arrc, path, "--emit=ir", "-o", os.devnull], TIMEOUT)[0] != 0:
                    bad.add(e[0])
        if not bad:
            finding("compile-error", err)
            return res
        res["unsupported"] += len(bad)
        exports = [e for e in exports if e[0] not in bad]
        text, spans = arrsmith.render(gen, exports, seed)
    if not exports:
        return res
    # 2. the reference: the interpreter before (and after) the passes
    expected = {}
    for name, sig, cases, rt in exports:
        for ci, case in enumerate(cases):
            argv = arrsmith_args(case)
            r1 = run([arrc, "run", "--interpret", path, "-e", name] + argv, TIMEOUT)
            r2 = run([arrc, "run", "--interpret-optimized", path, "-e", name] + argv, TIMEOUT)
            if r1[0] == "timeout" or r2[0] == "timeout":
                finding("interpreter-timeout", "", name, case)
                expected[(name, ci)] = None
                continue
            if r1[0] not in (0, 1) or r2[0] not in (0, 1):
                finding("interpreter-failure", r1[2] + r2[2], name, case)
                expected[(name, ci)] = None
                continue
            tol = tolerance_for(rt) or 0.0
            if r1[0] != r2[0] or (r1[0] == 0 and not same(parse_value(r1[1]), parse_value(r2[1]), tol)):
                # An error the passes dropped: legitimate when the failing value
                # is never used (dead code), a bug when it is (docs/reliability.md)
                kind = "passes-drop-error" if r1[0] == 1 and r2[0] == 0 else "passes-change-result"
                finding(kind, "lowered: rc %s %s%s\noptimised: rc %s %s%s" %
                        (r1[0], r1[1], errors_only(r1[2])[-1500:], r2[0], r2[1], errors_only(r2[2])[-1500:]),
                        name, case)
            # the compiled program must do what the optimised IR does
            expected[(name, ci)] = ("out", r2[1].strip()) if r2[0] == 0 else ("error", r2[2])
    # 3. the test blocks, run on the device (exports without a case keep none)
    blocks = []
    for name, sig, cases, rt in exports:
        tol = tolerance_for(rt)
        block = "// == test\n" + ("// tolerance: %g\n" % tol if tol else "")
        n = 0
        for ci, case in enumerate(cases):
            e = expected.get((name, ci))
            if e is None:
                continue
            block += "// in: %s\n" % case
            block += "// out: %s\n" % e[1] if e[0] == "out" else "// error:\n"
            n += 1
        blocks.append((name, block if n else "", n))
    for name, block, n in blocks:
        res["exports"] += 1
        res["cases"] += n
    final, _ = arrsmith.render(gen, exports, seed, {name: block for name, block, n in blocks})
    with open(path, "w") as f:
        f.write(final)
    # a private cache (kernel binaries, the harness build), removed afterwards;
    # no PoCL disk cache: thousands of random programs would fill the disk
    cache = os.path.join(workdir, "cache%d" % seed)
    env = dict(os.environ, ARRC_CACHE_DIR=cache, POCL_KERNEL_CACHE="0", ARRC_QUIET="1")
    rc, out, err = run([arrc, "test", "-j", "1", "--timeout", "300", path], 400, env)
    shutil.rmtree(cache, ignore_errors=True)
    if rc == "timeout":
        finding("device-timeout", "arrc test did not finish", prog=final)
        return res
    fails = re.findall(r"^FAIL [^:]+:(\d+): (f\d+) (.*)\n((?:    .*\n)*)", out, re.M)
    if rc != 0 and not fails:
        finding("device-build", out[-3000:] + err[-3000:], prog=final)
    for line, name, case, detail in fails:
        finding("mismatch", detail, name, case, prog=final)
    return res


def arrsmith_args(case):
    """Splits an in: line into arguments (top-level spaces)."""
    out, depth, cur = [], 0, ""
    for ch in case:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == " " and depth == 0:
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out


def save_finding(outdir, f):
    d = os.path.join(outdir, "findings")
    os.makedirs(d, exist_ok=True)
    stem = "seed%d-%s%s" % (f["seed"], f["kind"], "-" + f["export"] if f["export"] else "")
    k = 1
    while os.path.exists(os.path.join(d, stem + ".arr")):
        k += 1
        stem = stem.split("~")[0] + "~%d" % k
    with open(os.path.join(d, stem + ".arr"), "w") as o:
        o.write("// difftest finding: %s, seed %d%s\n" % (f["kind"], f["seed"],
                                                         ", export %s, input %s" % (f["export"], f["case"]) if f["export"] else ""))
        o.write("".join("// | " + l + "\n" for l in f["detail"].split("\n")))
        o.write(f["program"])
    return stem


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("arrc")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1, help="first seed; program k has seed SEED + k")
    ap.add_argument("--programs", type=int, default=0, help="number of programs (0: until --minutes)")
    ap.add_argument("--minutes", type=float, default=0, help="stop starting programs after this time")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--exports", type=int, default=6)
    ap.add_argument("--inputs", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep every program (default: only findings)")
    ap.add_argument("--seeds", default="", help="comma-separated seeds to run (replays findings)")
    args = ap.parse_args()
    if not args.programs and not args.minutes:
        args.programs = 20
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    start = time.time()
    totals = {"programs": 0, "exports": 0, "cases": 0, "unsupported": 0, "findings": 0, "to_review": 0}
    kinds = {}
    if args.seeds:
        seeds = iter(int(x) for x in args.seeds.split(","))
    else:
        seeds = iter(range(args.seed, args.seed + (args.programs or 10 ** 9)))

    def more():
        return not args.minutes or time.time() - start < args.minutes * 60

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        running = set()
        exhausted = False
        while running or not exhausted:
            while not exhausted and len(running) < args.jobs and more():
                s = next(seeds, None)
                if s is None:
                    exhausted = True
                    break
                running.add(pool.submit(program, args, s, work))
            if not more():
                exhausted = True
            if not running:
                break
            done, running = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                r = fut.result()
                totals["programs"] += 1
                for k in ("exports", "cases", "unsupported"):
                    totals[k] += r[k]
                for f in r["findings"]:
                    totals["to_review" if f["kind"] in SOFT else "findings"] += 1
                    kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
                    stem = save_finding(args.out, f)
                    print("%s %s (%s)" % ("REVIEW" if f["kind"] in SOFT else "FINDING", stem,
                                          f["detail"].strip().split("\n")[0][:160]), flush=True)
                if not args.keep:
                    for ext in (".arr",):
                        p = os.path.join(work, "p%d%s" % (r["seed"], ext))
                        if os.path.exists(p) and not r["findings"]:
                            os.remove(p)
    totals["seconds"] = round(time.time() - start, 1)
    totals["kinds"] = kinds
    print("difftest: %(programs)d programs, %(exports)d exports, %(cases)d cases, %(unsupported)d exports "
          "unsupported, %(findings)d findings, %(to_review)d errors dropped by the passes to review, "
          "in %(seconds)s s" % totals)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(totals, f, indent=1)
    return 1 if totals["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
