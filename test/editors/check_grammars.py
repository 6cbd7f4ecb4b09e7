#!/usr/bin/env python3
"""Checks the editor support in editors/ against the language:

1. The TextMate grammar (editors/vscode/syntaxes/arr.tmLanguage.json)
   tokenises every .arr file of examples/, test/e2e/programs/ and stdlib/
   with its own regular expressions (Python `re`, the grammar avoids
   Oniguruma-only syntax), line by line as an editor does: at every point
   the earliest match of the active rules wins; any text between matches
   that is not whitespace is an unmatched region and fails the check.
2. Every keyword of grammar/Arr.g4's lexer is a keyword, type or constant in
   the TextMate grammar and in the Vim syntax file, and every function that
   `arrc --list-builtins` names (the compiler's intrinsic table and the
   stdlib) is a builtin in both.
3. Vim loads editors/vim/syntax/arr.vim on every such file without an error,
   and gives a few probe tokens the expected syntax groups (skipped, with a
   message, where vim is not installed).

usage: check_grammars.py ARRC SOURCE_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


class Grammar:
    def __init__(self, path):
        g = json.load(open(path))
        self.repo = g.get('repository', {})
        self.top = self.flatten(g['patterns'])

    def flatten(self, patterns):
        out = []
        for p in patterns:
            if 'include' in p:
                out.extend(self.flatten(self.repo[p['include'][1:]]['patterns']))
            elif 'patterns' in p and 'match' not in p and 'begin' not in p:
                out.extend(self.flatten(p['patterns']))
            else:
                rule = dict(p)
                for key in ('match', 'begin', 'end'):
                    if key in rule:
                        rule[key + '_re'] = re.compile(rule[key])
                rule['inner'] = self.flatten(p.get('patterns', []))
                out.append(rule)
        return out


def earliest(rules, line, pos):
    """(start, end, rule) of the earliest match of any rule at or after pos."""
    best = None
    for r in rules:
        rx = r.get('match_re') or r.get('begin_re')
        m = rx.search(line, pos)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), m.end(), r)
    return best


def tokenise(grammar, text):
    """[(line, col, text, scope)] and [(line, col, unmatched text)]."""
    tokens, unmatched = [], []
    stack = []  # open begin/end regions
    for ln, line in enumerate(text.split('\n'), 1):
        pos = 0
        while pos <= len(line):
            if stack:
                region = stack[-1]
                end = region['end_re'].search(line, pos)
                inner = earliest(region['inner'], line, pos) if region['inner'] else None
                if inner and (end is None or inner[0] < end.start()) and inner[1] > inner[0]:
                    tokens.append((ln, inner[0] + 1, line[inner[0]:inner[1]], inner[2]['name']))
                    pos = inner[1]
                    continue
                if end is None:
                    break  # the region continues on the next line
                stack.pop()
                pos = end.end()
                if end.end() == end.start() and pos >= len(line):
                    break
                continue
            m = earliest(grammar.top, line, pos)
            stop = m[0] if m else len(line)
            gap = line[pos:stop]
            if gap.strip():
                unmatched.append((ln, pos + 1 + (len(gap) - len(gap.lstrip())), gap.strip()))
            if not m:
                break
            start, end, rule = m
            tokens.append((ln, start + 1, line[start:end], rule['name']))
            if 'begin_re' in rule:
                stack.append(rule)
            if end == start:
                end += 1  # never loop on an empty match
            pos = end
    return tokens, unmatched


def scope_of(grammar, word):
    toks, bad = tokenise(grammar, word)
    if bad or len(toks) != 1 or toks[0][2] != word:
        return None
    return toks[0][3]


def vim_groups(path):
    """{group: set(words)} of the `syn keyword` lines."""
    groups = {}
    for line in open(path):
        m = re.match(r'\s*syn keyword\s+(\w+)\s+(.*)', line)
        if m:
            words = [w for w in m.group(2).split() if '=' not in w and w != 'contained']
            groups.setdefault(m.group(1), set()).update(words)
    return groups


def main():
    arrc, src = sys.argv[1], sys.argv[2]
    failures = []
    grammar = Grammar(os.path.join(src, 'editors/vscode/syntaxes/arr.tmLanguage.json'))

    # 1. tokenise the programs
    files = []
    for d in ('examples', 'test/e2e/programs', 'stdlib'):
        for root, _, names in os.walk(os.path.join(src, d)):
            files.extend(os.path.join(root, n) for n in sorted(names) if n.endswith('.arr'))
    ntokens = 0
    for f in files:
        toks, bad = tokenise(grammar, open(f).read())
        ntokens += len(toks)
        for ln, col, text in bad:
            failures.append('%s:%d:%d: unmatched by the TextMate grammar: %r' % (f, ln, col, text))
        if not toks:
            failures.append('%s: no tokens' % f)
    print('tokenised %d files (%d tokens) with the TextMate grammar' % (len(files), ntokens))

    # 2. keywords and builtins, from the compiler
    g4 = open(os.path.join(src, 'grammar/Arr.g4')).read()
    keywords = re.findall(r"^[A-Z_]+\s*:\s*'([a-z]+)'\s*;", g4, re.M)
    listed = subprocess.run([arrc, '--list-builtins'], capture_output=True, text=True, check=True).stdout
    builtins = [l.split()[1] for l in listed.splitlines() if l.strip()]
    if len(keywords) < 20 or len(builtins) < 40:
        failures.append('too few keywords (%d) or builtins (%d) found' % (len(keywords), len(builtins)))
    word_scopes = ('keyword.', 'storage.type.', 'constant.language.')
    for k in keywords:
        s = scope_of(grammar, k)
        if not s or not s.startswith(word_scopes):
            failures.append('TextMate grammar: keyword %r has scope %s' % (k, s))
    for b in builtins:
        s = scope_of(grammar, b)
        if s != 'support.function.builtin.arr':
            failures.append('TextMate grammar: builtin %r has scope %s' % (b, s))
    vim_file = os.path.join(src, 'editors/vim/syntax/arr.vim')
    groups = vim_groups(vim_file)
    vim_keywords = set().union(*(groups.get(g, set()) for g in (
        'arrDeclaration', 'arrConditional', 'arrRepeat', 'arrKeyword', 'arrBoolean', 'arrType')))
    for k in keywords:
        if k not in vim_keywords:
            failures.append('Vim syntax: keyword %r missing' % k)
    vim_builtins = groups.get('arrBuiltin', set())
    for b in builtins:
        if b not in vim_builtins:
            failures.append('Vim syntax: builtin %r missing' % b)
    for b in sorted(vim_builtins - set(builtins)):
        failures.append('Vim syntax: %r is not a builtin of the compiler' % b)
    print('checked %d keywords and %d builtins in both grammars' % (len(keywords), len(builtins)))

    # 3. Vim itself
    vim = shutil.which('vim')
    if not vim:
        print('vim not installed: the Vim syntax file was only checked for its keywords')
    else:
        with tempfile.TemporaryDirectory() as tmp:
            probe = os.path.join(tmp, 'probe.arr')
            with open(probe, 'w') as p:
                p.write('// == test\n// in: 1\nexport double[[*]] f(int n) = sum(iota(n)) + 1.5;\n')
            out = os.path.join(tmp, 'out.txt')
            script = os.path.join(tmp, 'check.vim')
            checks = [(1, 4, 'arrTestBlock'), (2, 4, 'arrTestKey'), (3, 1, 'arrDeclaration'),
                      (3, 8, 'arrType'), (3, 14, 'arrArrayType'), (3, 31, 'arrBuiltin'),
                      (3, 20, 'arrFunction'), (3, 46, 'arrFloat')]
            lines = ['set nocompatible', 'let &rtp = %s . "," . &rtp' % json.dumps(os.path.join(src, 'editors/vim')),
                     'filetype on', 'syntax on', 'let g:out = []']
            for f in files + [probe]:
                lines += ['silent! edit %s' % f.replace(' ', '\\ '),
                          'if &filetype !=# "arr" || get(b:, "current_syntax", "") !=# "arr"',
                          '  call add(g:out, "not highlighted as arr: %s")' % f, 'endif']
            for ln, col, group in checks:
                lines += ['let s:g = synIDattr(synID(%d, %d, 1), "name")' % (ln, col),
                          'if s:g !=# "%s" | call add(g:out, "probe %d:%d is " . s:g . ", expected %s") | endif'
                          % (group, ln, col, group)]
            lines += ['call add(g:out, "errmsg: " . v:errmsg)', 'call writefile(g:out, %s)' % json.dumps(out), 'qa!']
            open(script, 'w').write('\n'.join(lines) + '\n')
            subprocess.run([vim, '-N', '-u', 'NONE', '-i', 'NONE', '-n', '-es', '-S', script],
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
            if not os.path.exists(out):
                failures.append('vim did not run the check script')
            else:
                for l in open(out).read().splitlines():
                    if l == 'errmsg: ':
                        continue
                    failures.append('Vim: ' + l)
            print('vim loaded the syntax on %d files and highlighted the probe' % len(files))

    for f in failures:
        print('FAIL ' + f)
    print('%d problems' % len(failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
