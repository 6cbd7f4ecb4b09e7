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
sys.path.insert(0, HERE)
from difftest import arrsmith_args  # noqa: E402  (an `// in:` line's arguments)


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
                inputs.append(arrsmith_args(m.group(1)))
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
