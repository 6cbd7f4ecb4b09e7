#!/usr/bin/env python3
"""Runs the snippets of the user documentation, so that what it shows is true.

  run_snippets.py tutorial BUILD_DIR WORK_DIR docs/tutorial.md
  run_snippets.py reference BUILD_DIR WORK_DIR docs/reference.md

Both install the build tree into WORK_DIR/prefix first and put its bin/ on
PATH (so the docs are checked against an installed arrc), with
CMAKE_PREFIX_PATH and PKG_CONFIG_PATH pointing there and ARRC_QUIET=1.

tutorial: the document is followed in order, in WORK_DIR/tutorial:
  - a fenced block preceded by `<!-- file: NAME -->` is written to NAME
    (a later block of the same name replaces it); an `arr` file is compiled
    at once (`arrc NAME -o /dev/null`). `arr`, `cpp` and `cmake` blocks need
    such a marker; `text` blocks are not run.
  - in a `sh` block each `$ ` line is a command (bash, in the work dir); the
    lines up to the next `$ ` are its expected output (stdout and stderr
    together, trailing blanks ignored). A line `...` matches any number of
    lines, `...` inside a line any text. A command must exit 0, or the status
    written after it as `# exit N`.
  - `<!-- needs: nvidia -->` before a block: it runs only where an NVIDIA
    OpenCL device exists (else it is reported as skipped).

reference: every line `export T name() = EXPR;  // ==> VALUE` (or `// ==>
error: TEXT`) of the `arr` blocks becomes a test case; all blocks go into one
file run by `arrc test`. Then every function of `arrc --list-builtins` (the
compiler's intrinsic table and the stdlib) must have a `### \\`name\\`` section
with `**Signature:** \\`TYPE\\`` (TYPE exactly as the compiler has it),
`**Complexity:**` and an example that uses it.
"""
import os
import re
import shutil
import subprocess
import sys


def install(build, work):
    prefix = os.path.join(work, 'prefix')
    shutil.rmtree(prefix, ignore_errors=True)
    subprocess.run(['cmake', '--install', build, '--prefix', prefix], check=True,
                   stdout=subprocess.DEVNULL)
    env = dict(os.environ)
    env['PATH'] = os.path.join(prefix, 'bin') + os.pathsep + env.get('PATH', '')
    env['CMAKE_PREFIX_PATH'] = prefix
    env['PKG_CONFIG_PATH'] = os.path.join(prefix, 'lib', 'pkgconfig')
    env['ARRC_QUIET'] = '1'
    env.pop('ARRC_DEVICE', None)
    return prefix, env


def blocks(path):
    """[(line, lang, text, markers)] of the fenced blocks of a markdown file."""
    out, markers = [], {}
    lines = open(path).read().split('\n')
    i = 0
    while i < len(lines):
        l = lines[i]
        m = re.match(r'\s*<!--\s*(\w[\w-]*)\s*:\s*(.*?)\s*-->\s*$', l)
        if m:
            markers[m.group(1)] = m.group(2)
            i += 1
            continue
        f = re.match(r'(\s*)```(\w*)\s*$', l)
        if f:
            indent, lang, start = f.group(1), f.group(2), i + 1
            body = []
            i += 1
            while i < len(lines) and not re.match(r'\s*```\s*$', lines[i]):
                body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                i += 1
            out.append((start, lang, '\n'.join(body) + '\n', markers))
            markers = {}
        elif l.strip():
            markers = {} if not l.strip().startswith('<!--') else markers
        i += 1
    return out


def line_matches(pattern, line):
    parts = [re.escape(p) for p in pattern.rstrip().split('...')]
    return re.fullmatch('.*?'.join(parts), line.rstrip()) is not None


def output_matches(expected, got):
    """Line patterns against lines; a `...` line matches any number of lines."""
    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(expected):
            r = j == len(got)
        elif expected[i].strip() == '...':
            r = go(i + 1, j) or (j < len(got) and go(i, j + 1))
        else:
            r = j < len(got) and line_matches(expected[i], got[j]) and go(i + 1, j + 1)
        memo[(i, j)] = r
        return r
    return go(0, 0)


def has_nvidia(env):
    r = subprocess.run(['clinfo', '-l'], capture_output=True, text=True, env=env) \
        if shutil.which('clinfo') else None
    return r is not None and 'nvidia' in r.stdout.lower()


def tutorial(doc, env, work):
    wd = os.path.join(work, 'tutorial')
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    failures, commands, skipped = [], 0, 0
    nvidia = None
    for line, lang, text, markers in blocks(doc):
        where = '%s:%d' % (doc, line)
        needs = markers.get('needs')
        if needs:
            if needs != 'nvidia':
                failures.append('%s: unknown need %r' % (where, needs))
                continue
            if nvidia is None:
                nvidia = has_nvidia(env)
            if not nvidia:
                skipped += 1
                print('SKIP %s: needs an NVIDIA OpenCL device' % where)
                continue
        if lang in ('arr', 'cpp', 'cmake'):
            name = markers.get('file')
            if not name:
                failures.append('%s: a %s block without <!-- file: NAME --> before it' % (where, lang))
                continue
            with open(os.path.join(wd, name), 'w') as f:
                f.write(text)
            if lang == 'arr':
                r = subprocess.run(['arrc', name, '-o', os.devnull], cwd=wd, env=env,
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    failures.append('%s: %s does not compile:\n%s' % (where, name, r.stderr))
                    continue
            print('FILE %s: %s' % (where, name))
        elif lang == 'sh':
            lines = text.rstrip('\n').split('\n')
            k = 0
            while k < len(lines):
                if not lines[k].startswith('$ '):
                    failures.append('%s: expected a `$ ` command line, got %r' % (where, lines[k]))
                    break
                cmd = lines[k][2:]
                cmd_line = line + k
                k += 1
                expected = []
                while k < len(lines) and not lines[k].startswith('$ '):
                    expected.append(lines[k])
                    k += 1
                status = 0
                m = re.search(r'#\s*exit\s+(\d+)\s*$', cmd)
                if m:
                    status = int(m.group(1))
                commands += 1
                r = subprocess.run(['bash', '-c', cmd], cwd=wd, env=env, capture_output=True,
                                   text=True, timeout=900)
                got = (r.stdout + r.stderr).rstrip('\n').split('\n') if (r.stdout + r.stderr).strip() else []
                ok = r.returncode == status and output_matches(expected, got)
                print('%s %s:%d: $ %s' % ('PASS' if ok else 'FAIL', doc, cmd_line, cmd))
                if not ok:
                    failures.append('%s:%d: $ %s\n  exit status %d (expected %d)\n  expected:\n%s\n  got:\n%s' % (
                        doc, cmd_line, cmd, r.returncode, status,
                        '\n'.join('    ' + e for e in expected), '\n'.join('    ' + g for g in got)))
        elif lang not in ('text', ''):
            failures.append('%s: a %r block: use arr, cpp, cmake, sh or text' % (where, lang))
    print('%d commands run, %d blocks skipped' % (commands, skipped))
    if commands < 10:
        failures.append('only %d commands found in %s' % (commands, doc))
    return failures


EXAMPLE = re.compile(r'^\s*export\s.*;\s*//\s*==>\s*(.*)$')


def reference(doc, env, work):
    wd = os.path.join(work, 'reference')
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    failures = []
    text = open(doc).read()
    # 1. the examples, as one program with a test block per example
    program, examples = [], 0
    names = set()
    for line, lang, body, _ in blocks(doc):
        if lang != 'arr':
            continue
        for k, l in enumerate(body.rstrip('\n').split('\n')):
            m = EXAMPLE.match(l)
            if m:
                value = m.group(1).strip()
                n = re.match(r'\s*export\s.*?\b([A-Za-z_]\w*)\s*\(', l)
                if n and n.group(1) in names:
                    failures.append('%s:%d: the example name %s is used twice' % (doc, line + k, n.group(1)))
                if n:
                    names.add(n.group(1))
                program.append('// (%s:%d)' % (os.path.basename(doc), line + k))
                program.append('// == test')
                program.append('// in:')
                if value.startswith('error:'):
                    program.append('// error: ' + value[6:].strip())
                else:
                    program.append('// out: ' + value)
                examples += 1
            program.append(l)
        program.append('')
    path = os.path.join(wd, 'reference_examples.arr')
    open(path, 'w').write('\n'.join(program) + '\n')
    r = subprocess.run(['arrc', 'test', path], env=env, capture_output=True, text=True, timeout=1800)
    print(r.stdout + r.stderr)
    if r.returncode != 0:
        failures.append('the examples of %s fail under arrc test (see above; the program is %s)' % (doc, path))
    if examples < 50:
        failures.append('only %d examples found in %s' % (examples, doc))

    # 2. every builtin documented, with the compiler's signature
    listed = subprocess.run(['arrc', '--list-builtins'], env=env, capture_output=True, text=True,
                            check=True).stdout.splitlines()
    sections = {}
    for m in re.finditer(r'^### `([A-Za-z_]\w*)`\s*$(.*?)(?=^#{1,3} |\Z)', text, re.M | re.S):
        sections[m.group(1)] = m.group(2)
    for l in listed:
        parts = l.split(' ', 3 if l.startswith('stdlib') else 2)
        name, sig = parts[1], parts[-1]
        sec = sections.get(name)
        if sec is None:
            failures.append('%s: no section "### `%s`" (%s)' % (doc, name, l))
            continue
        m = re.search(r'\*\*Signature:\*\*\s*`([^`]*)`', sec)
        if not m:
            failures.append('%s: `%s` has no **Signature:**' % (doc, name))
        elif m.group(1) != sig:
            failures.append('%s: `%s` is documented as `%s`, the compiler has `%s`' % (doc, name, m.group(1), sig))
        if '**Complexity:**' not in sec:
            failures.append('%s: `%s` has no **Complexity:**' % (doc, name))
        uses = [x for x in sec.split('\n') if EXAMPLE.match(x) and re.search(r'\b%s\b' % name, x.split('=', 1)[-1])]
        if not uses:
            failures.append('%s: `%s` has no example (`export ... = ...%s(...);  // ==> value`)' % (doc, name, name))
    print('%d builtins checked, %d examples' % (len(listed), examples))
    return failures


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ('tutorial', 'reference'):
        print(__doc__)
        return 2
    mode, build, work, doc = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    _, env = install(build, work)
    failures = tutorial(doc, env, work) if mode == 'tutorial' else reference(doc, env, work)
    for f in failures:
        print('FAIL ' + f)
    print('%d problems' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
