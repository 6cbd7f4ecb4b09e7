#!/usr/bin/env python3
"""Counts bounds-checked reads (`]!K`) in the device code (SOAC bodies and
operators) of `arrc --emit=ir` output, per program.

usage: count_checked_reads.py ARRC FILE.arr...   (prints "FILE device=N host=M")
"""
import re
import subprocess
import sys

SOAC = re.compile(r"= (map|reduce|scan|scan_exclusive|filter|scatter|hist|segscan|segreduce|expand|"
                  r"expand into reduce|expand into filter|sort) ")


def count(ir):
    device = host = 0
    stack = []  # one flag per open brace: inside device code?
    for line in ir.splitlines():
        checked = len(re.findall(r"\]!\d+", line))
        soac = bool(SOAC.search(line))
        in_dev = bool(stack and stack[-1])
        # a line that opens a SOAC counts its own header as host code
        if in_dev:
            device += checked
        else:
            host += checked
        last_closed = None
        for ch in line:
            if ch == "}":
                last_closed = stack.pop() if stack else False
            elif ch == "{":
                if last_closed is not None:
                    stack.append(last_closed)  # `} else {`, `} op (...) {`
                    last_closed = None
                else:
                    stack.append(bool(stack and stack[-1]) or soac)
    return device, host


def main():
    arrc = sys.argv[1]
    for f in sys.argv[2:]:
        ir = subprocess.run([arrc, "--emit=ir", f], capture_output=True, text=True, check=True).stdout
        d, h = count(ir)
        print(f"{f} device={d} host={h}")


if __name__ == "__main__":
    main()
