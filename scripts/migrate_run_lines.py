#!/usr/bin/env python3
"""Turns the old `// arrc run FILE -e ENTRY ARG... ==> EXPECTED` comment lines
of .arr files into `// == test` blocks (docs/testing.md) above each export,
so that `arrc test` runs them. Rewrites the files in place.

usage: scripts/migrate_run_lines.py FILE.arr...

`==> error: TEXT` becomes `error: TEXT`; `(same arguments)` reuses the
previous line's arguments; a value continued on more-indented comment lines
is joined. The old lines are removed from the comment they were in.
"""
import re
import shlex
import sys


def parse_run_lines(lines):
    """[(first_line, last_line, entry, args_text, expected)] and the line numbers used."""
    cases, used = [], set()
    last_args = []
    i = 0
    while i < len(lines):
        body = lines[i].strip()
        if not body.startswith('//'):
            i += 1
            continue
        text = body[2:].strip()
        if not text.startswith('arrc run'):
            i += 1
            continue
        first = i
        cmd, exp = text, None
        if '==>' in text:
            cmd, exp = text.split('==>', 1)
        elif i + 1 < len(lines) and lines[i + 1].strip()[2:].strip().startswith('==>'):
            i += 1
            exp = lines[i].strip()[2:].strip()[3:]
        if exp is None:
            i += 1
            continue
        # continuation lines of the expected value: more indented, not a new command
        while i + 1 < len(lines):
            nxt = lines[i + 1].strip()
            if not nxt.startswith('//'):
                break
            t = nxt[2:]
            if not t.strip() or t.strip().startswith(('arrc', '==>')) or not t.startswith('    '):
                break
            i += 1
            exp += ' ' + t.strip()
        words = shlex.split(cmd.strip())[2:]  # drop "arrc run"; words[0] is the file
        words = words[1:]
        entry = None
        args = []
        k = 0
        while k < len(words):
            w = words[k]
            if w in ('-e', '--entry') and k + 1 < len(words):
                entry = words[k + 1]
                k += 2
                continue
            if w == '--':
                k += 1
                continue
            args.append(w)
            k += 1
        if '(same' in cmd:
            args = last_args
        else:
            last_args = args
        if entry is None:
            raise SystemExit('%d: no -e ENTRY in: %s' % (first + 1, text))
        cases.append((first, i, entry, ' '.join(args), exp.strip()))
        used.update(range(first, i + 1))
        i += 1
    return cases, used


def wrap(prefix, value, width=96):
    """`// out: value`, continued on indented lines at ', ' when it is long."""
    lines, cur = [], '// ' + prefix + ' '
    pad = '// ' + ' ' * (len(prefix) + 1)
    parts = re.split(r'(?<=,) ', value)
    for p in parts:
        if len(cur) + len(p) > width and cur.strip() not in ('//', '// ' + prefix):
            lines.append(cur.rstrip())
            cur = pad
        cur += p + ' '
    lines.append(cur.rstrip())
    return lines


def migrate(path):
    lines = open(path).read().split('\n')
    cases, used = parse_run_lines(lines)
    if not cases:
        return False
    by_entry = {}
    for _, _, entry, args, exp in cases:
        by_entry.setdefault(entry, []).append((args, exp))
    kept = []
    for n, l in enumerate(lines):
        if n in used:
            continue
        kept.append(l)
    # drop empty comment lines left dangling where the run lines were
    out = []
    for n, l in enumerate(kept):
        if l.strip() == '//' and (n + 1 >= len(kept) or not kept[n + 1].strip().startswith('//')) \
                and out and out[-1].strip().startswith('//'):
            continue
        out.append(l)
    while len(out) > 1 and out[-1] == '' and out[-2] == '':
        out.pop()
    result = []
    placed = set()
    for l in out:
        m = re.match(r'\s*export\b.*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(', l)
        if m and m.group(1) in by_entry and m.group(1) not in placed:
            name = m.group(1)
            placed.add(name)
            # keep the file's header comment apart from the block
            if result and all(r.strip().startswith('//') for r in result):
                result.append('')
            result.append('// == test')
            for args, exp in by_entry[name]:
                result.append(('// in: ' + args).rstrip())
                if exp.startswith('error:'):
                    result.append(('// error: ' + exp[6:].strip()).rstrip())
                else:
                    result.extend(wrap('out:', exp))
        result.append(l)
    missing = set(by_entry) - placed
    if missing:
        raise SystemExit('%s: no export line found for %s' % (path, ', '.join(sorted(missing))))
    open(path, 'w').write('\n'.join(result))
    return True


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    for f in sys.argv[1:]:
        print(('migrated ' if migrate(f) else 'nothing to migrate in ') + f)
    return 0


if __name__ == '__main__':
    sys.exit(main())
