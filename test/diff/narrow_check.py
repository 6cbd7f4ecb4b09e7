#!/usr/bin/env python3
"""The guarded-range narrowing (docs/lowering.md, "Guarded ranges") against
the filters as written: for each arrsmith program of the given seeds that has
a range generator followed by a bounding filter, every export and input runs
through the IR interpreter twice, with and without ARRC_NARROW_RANGES=0, and
the outputs (values or first error line) must be equal.

usage: python3 test/diff/narrow_check.py ARRC FIRST_SEED END_SEED [WORKDIR]
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def split_args(line):
    """Top-level space-separated arguments of an `// in:` line."""
    toks, depth, cur = [], 0, ""
    for ch in line:
        depth += ch in "[(" and 1 or 0
        depth -= ch in "])" and 1 or 0
        if ch == " " and depth == 0:
            if cur:
                toks.append(cur)
            cur = ""
        else:
            cur += ch
    return toks + ([cur] if cur else [])


def run(arrc, path, name, args, env_extra):
    env = dict(os.environ, **env_extra)
    p = subprocess.run([arrc, "run", "--interpret", path, "-e", name] + args,
                       capture_output=True, text=True, env=env, timeout=120)
    if p.returncode == 0:
        return p.stdout.strip()
    return "error: " + (p.stderr.strip().split("\n")[0] if p.stderr else "")


def main():
    arrc, first, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    work = sys.argv[4] if len(sys.argv) > 4 else "narrow-check"
    os.makedirs(work, exist_ok=True)
    programs = runs = diffs = 0
    for seed in range(first, end):
        src = subprocess.run([sys.executable, os.path.join(HERE, "arrsmith.py"), str(seed)],
                             capture_output=True, text=True, check=True).stdout
        if not re.search(r"<- \[[^]]*\.\.<[^]]*\], *\(?\w+\)? *[<>]=?", src):
            continue
        programs += 1
        path = os.path.join(work, "p%d.arr" % seed)
        with open(path, "w") as f:
            f.write(src)
        inputs = []
        for line in src.split("\n"):
            m = re.match(r"// in: (.*)", line)
            if m:
                inputs.append(split_args(m.group(1)))
                continue
            m = re.match(r"export .*? (f\d+)\(", line)
            if m:
                for args in inputs:
                    a = run(arrc, path, m.group(1), args, {})
                    b = run(arrc, path, m.group(1), args, {"ARRC_NARROW_RANGES": "0"})
                    runs += 1
                    if a != b:
                        diffs += 1
                        print("DIFF seed %d %s %s\n  narrowed: %s\n  as written: %s" %
                              (seed, m.group(1), " ".join(args), a[:300], b[:300]))
                inputs = []
    print("narrow_check: %d programs with a bounded range, %d runs, %d differences" % (programs, runs, diffs))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
