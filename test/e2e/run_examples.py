#!/usr/bin/env python3
"""End-to-end: every `arrc run ... ==> expected` line in the header comments
of examples/*.arr is run through `arrc run` on the default OpenCL device and
its output compared with the published expected value.

Integers, booleans and the text must match exactly; floating-point numbers
(those with a '.' or an exponent) match within a relative tolerance of 1e-9
for doubles and 1e-5 for floats (suffix f), because reductions may combine
in a different order than a sequential reference.

usage: run_examples.py ARRC EXAMPLES_DIR [NAME...]
"""
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

NUM = re.compile(r"-?(?:nan|inf|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)[fL]?")


def tokens(s):
    out, i = [], 0
    s = s.strip()
    while i < len(s):
        if s[i].isspace():
            i += 1
            continue
        m = NUM.match(s, i)
        if m and (i == 0 or not (s[i - 1].isalnum() or s[i - 1] == '_')):
            out.append(('num', m.group(0)))
            i = m.end()
        else:
            out.append(('sym', s[i]))
            i += 1
    return out


def close(a, b):
    if a == b:
        return True
    fa, fb = a.endswith('f'), b.endswith('f')
    isfloat = lambda t: ('.' in t or 'e' in t.lower() or 'nan' in t or 'inf' in t) and not t.endswith('L')
    if fa != fb or not (isfloat(a) and isfloat(b)):
        return False
    x, y = float(a.rstrip('f')), float(b.rstrip('f'))
    tol = 1e-5 if fa else 1e-9
    return abs(x - y) <= tol * max(1.0, abs(x), abs(y))


def same(got, want):
    tg, tw = tokens(got), tokens(want)
    if len(tg) != len(tw):
        return False
    for (kg, vg), (kw, vw) in zip(tg, tw):
        if kg != kw:
            return False
        if kg == 'sym' and vg != vw:
            return False
        if kg == 'num' and not close(vg, vw):
            return False
    return True


def cases(path):
    """(args, expected) pairs from the `arrc run` comment lines."""
    lines = [l.rstrip('\n') for l in open(path)]
    out = []
    last_args = None
    i = 0
    while i < len(lines):
        l = lines[i]
        if not l.startswith('//'):
            i += 1
            continue
        body = l[2:].strip()
        if body.startswith('arrc run') or body.startswith('==>'):
            cmd, exp = body, None
            if '==>' in body:
                cmd, exp = body.split('==>', 1)
            else:
                # expected value on the next comment line(s)
                if i + 1 < len(lines) and lines[i + 1][2:].strip().startswith('==>'):
                    i += 1
                    exp = lines[i][2:].strip()[3:]
            if exp is None:
                i += 1
                continue
            # continuation lines of the expected value (more indented, no new command)
            while i + 1 < len(lines) and lines[i + 1].startswith('//') and \
                    lines[i + 1][2:].strip() and not lines[i + 1][2:].strip().startswith(('arrc', '==>')) and \
                    lines[i + 1][2:].startswith('    '):
                i += 1
                exp += ' ' + lines[i][2:].strip()
            cmd = cmd.strip()
            if cmd.startswith('arrc run'):
                argv = shlex.split(cmd)[2:]
                # argv[0] is the file; "(same arguments)" reuses the previous ones
                entry_args = argv[1:]
                if '(same' in cmd:
                    ent = cmd.split('-e', 1)[1].split()[0]
                    entry_args = ['-e', ent] + last_args
                else:
                    last_args = [a for k, a in enumerate(entry_args)
                                 if not (a == '-e' or (k > 0 and entry_args[k - 1] == '-e'))]
                out.append((entry_args, exp.strip()))
        i += 1
    return out


def main():
    arrc, exdir = sys.argv[1], sys.argv[2]
    names = sys.argv[3:]
    files = sorted(f for f in os.listdir(exdir) if f.endswith('.arr'))
    if names:
        files = [f for f in files if f[:-4] in names]
    failures, count = 0, 0

    def run_file(f):
        # One file's runs in order (its exports share nothing with other files'
        # compile-cache entries, so files can run concurrently).
        return [(args, exp, [arrc, 'run', os.path.join(exdir, f)] + args,
                 subprocess.run([arrc, 'run', os.path.join(exdir, f)] + args,
                                capture_output=True, text=True, timeout=600))
                for args, exp in cases(os.path.join(exdir, f))]

    jobs = int(os.environ.get('ARRC_E2E_JOBS', '0')) or os.cpu_count() or 1
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(run_file, files))
    for f, runs in zip(files, results):
        for args, exp, cmd, r in runs:
            count += 1
            got = r.stdout.strip()
            if exp.startswith('error:'):
                # a runtime error: exit status 1 and "file:line:col: error: <text>"
                pat = re.escape(os.path.join(exdir, f)) + r':\d+:\d+: error: .*' + re.escape(exp[6:].strip())
                ok = r.returncode == 1 and re.search(pat, r.stderr) is not None
                got = got + ' [exit %d] ' % r.returncode + r.stderr.strip()
            else:
                ok = r.returncode == 0 and same(got, exp)
            print(('PASS' if ok else 'FAIL') + ': ' + ' '.join(shlex.quote(c) for c in cmd[1:]))
            if not ok:
                failures += 1
                print('  expected: ' + exp)
                print('  got:      ' + got)
                if r.stderr:
                    print('  stderr:   ' + r.stderr.strip()[:3000])
    print('%d of %d example runs passed' % (count - failures, count))
    if count == 0:
        print('no example runs found')
        return 1
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
