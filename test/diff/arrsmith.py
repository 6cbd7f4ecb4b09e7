#!/usr/bin/env python3
"""arrsmith: random well-typed Arr programs for differential testing
(docs/reliability.md), in the spirit of Csmith.

A program is a module of exports (and helper defs) with `// == test` inputs.
Every program is deterministic by construction, so the IR interpreter and the
compiled program must agree:
  - floating-point values are tracked as exact (dyadic numbers whose bits fit
    the mantissa, so + - * and reductions in any order give the same result)
    or inexact (after / and the math functions: compared with a tolerance);
    only exact values reach comparisons, filters, sort keys, indices, sizes
    and conversions to integers; magnitudes stay bounded (no inf, no NaN);
  - integers wrap, divide by zero and shift as LANGUAGE.md defines: edge
    values (INT_MIN, -1, 0, INT_MAX, ...) are generated on purpose;
  - reduce/scan/hist operators are associative with their neutral element
    (hist: also commutative); scatter indices are distinct;
  - sizes are small and non-negative; indices are reduced into range (or an
    error is expected: then both sides must raise).

  arrsmith.py SEED [--exports N] [--inputs N] > prog.arr
The module is printed with test blocks holding only `in:` lines; difftest.py
adds the expected `out:`/`error:` from the interpreter.
"""
import argparse
import random
import re
import sys

# ----------------------------------------------------------------- types
INT, LONG, FLOAT, DOUBLE, BOOL = "int", "long", "float", "double", "bool"
NUMERIC = [INT, LONG, FLOAT, DOUBLE]
INTEGRAL = [INT, LONG]
FLOATING = [FLOAT, DOUBLE]
INT_MIN, INT_MAX = -2**31, 2**31 - 1
LONG_MIN, LONG_MAX = -2**63, 2**63 - 1
MANTISSA = {FLOAT: 22, DOUBLE: 50}   # exact while |v| * 2^frac < 2^bits
MAX_LEN = 12                          # array lengths of inputs
MAX_MAG = 1e4                         # magnitude bound of inexact values


class T:
    """A type: scalar (kind), tuple (elems) or array (elem, rank)."""
    def __init__(self, kind, elems=None, elem=None, rank=0):
        self.kind, self.elems, self.elem, self.rank = kind, elems, elem, rank

    def __eq__(self, o):
        return isinstance(o, T) and str(self) == str(o)

    def __hash__(self):
        return hash(str(self))

    def __str__(self):
        if self.kind == "tuple":
            return "(" + ", ".join(map(str, self.elems)) + ")"
        if self.kind == "array":
            return "%s[[%s]]" % (self.elem, ",".join("*" * self.rank))
        return self.kind

    @property
    def scalar(self):
        return self.kind not in ("tuple", "array")


def S(k):
    return T(k)


def A(elem, rank=1):
    return T("array", elem=elem if isinstance(elem, T) else S(elem), rank=rank)


def TUP(*elems):
    return T("tuple", elems=[e if isinstance(e, T) else S(e) for e in elems])


class V:
    """A generated expression: text, type and what is known about its value.
    exact: floating point values are exact dyadic numbers; mag: a bound of
    |value| (of every element, for arrays; None: unknown, integers only);
    frac: fractional bits of exact floats; length: bound of the array length
    (axis 0); nonempty: known to have at least one element."""
    def __init__(self, text, ty, exact=True, mag=None, frac=0, length=MAX_LEN, nonempty=False):
        if mag is None and not is_int_typed(ty):
            mag, exact = 1e18, False  # unknown: treated as huge and inexact
        self.text, self.ty, self.exact, self.mag, self.frac = text, ty, exact, mag, frac
        self.length, self.nonempty = length, nonempty


def fits(v, kind):
    """Whether an exact float expression stays exact in `kind`."""
    if v.mag is None:
        return False
    return v.mag * (2 ** v.frac) < 2 ** MANTISSA[kind]


def paren(s):
    return "(" + s + ")"


def fmt_float(x, kind):
    s = repr(float(x))
    if "e" not in s and "." not in s:
        s += ".0"
    if "e" in s and "." not in s.split("e")[0]:
        m, e = s.split("e")
        s = m + ".0e" + e
    s = s if kind == DOUBLE else s + "f"
    return paren(s) if x < 0 or s.startswith("-") else s


def fmt_int(x, kind):
    s = str(x) + ("L" if kind == LONG else "")
    return paren(s) if x < 0 else s


# ----------------------------------------------------------------- generator
class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.defs = []        # helper def texts
        self.def_sigs = []    # (name, [param types], result type, ...)
        self.counter = 0

    def fresh(self, base="v"):
        self.counter += 1
        return "%s%d" % (base, self.counter)

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    # ---- literals
    def int_literal(self, kind):
        lo, hi = (INT_MIN, INT_MAX) if kind == INT else (LONG_MIN, LONG_MAX)
        edge = [0, 1, -1, 2, -2, 7, hi, lo, hi - 1, lo + 1, 255, 65536, -65536]
        if kind == LONG:
            edge += [INT_MAX, INT_MIN, 2**32, -2**32, 2**31]
        if self.chance(0.3):
            x = self.pick(edge)
        else:
            x = self.r.randint(-20, 20)
        return V(fmt_int(x, kind), S(kind), mag=abs(x))

    def float_literal(self, kind):
        x = self.r.randint(-64, 64) / 4.0
        if self.chance(0.05):
            x = -0.0
        return V(fmt_float(x, kind), S(kind), exact=True, mag=16.0, frac=2)

    def literal(self, ty):
        k = ty.kind
        if k == BOOL:
            return V(self.pick(["true", "false"]), ty)
        if k in INTEGRAL:
            return self.int_literal(k)
        if k in FLOATING:
            return self.float_literal(k)
        if k == "tuple":
            parts = [self.literal(e) for e in ty.elems]
            return V("(" + ", ".join(p.text for p in parts) + ")", ty,
                     exact=all(p.exact for p in parts), mag=max_mag(parts), frac=max(p.frac for p in parts))
        raise ValueError(ty)

    # ---- input values (test arguments), matching what literal() would allow
    def input_value(self, ty, length=None):
        k = ty.kind
        if k == BOOL:
            return self.pick(["true", "false"])
        if k in INTEGRAL:
            v = self.int_literal(k).text
            return v.strip("()")
        if k in FLOATING:
            return self.float_literal(k).text.strip("()")
        if k == "tuple":
            return "(" + ", ".join(self.input_value(e) for e in ty.elems) + ")"
        if k == "array":
            def nest(axis, lengths):
                n = lengths[axis]
                if axis + 1 == ty.rank:
                    return "[" + ", ".join(self.input_value(ty.elem) for _ in range(n)) + "]"
                return "[" + ", ".join(nest(axis + 1, lengths) for _ in range(n)) + "]"
            lengths = [length if length is not None and a == 0 else self.array_length(ty.rank) for a in range(ty.rank)]
            if 0 in lengths:
                lengths = [0] * ty.rank
            return nest(0, lengths)
        raise ValueError(ty)

    def array_length(self, rank):
        if rank > 1:
            return self.r.randint(0, 4) if self.chance(0.1) else self.r.randint(1, 4)
        if self.chance(0.1):
            return 0
        return self.r.randint(1, MAX_LEN)

    # ---- types
    def scalar_type(self, allow_bool=True):
        ks = [INT, INT, LONG, DOUBLE, DOUBLE, FLOAT] + ([BOOL] if allow_bool else [])
        return S(self.pick(ks))

    def elem_type(self):
        if self.chance(0.15):
            return TUP(*[self.scalar_type().kind for _ in range(2)])
        return self.scalar_type()

    def value_type(self, depth=0):
        x = self.r.random()
        if x < 0.45:
            return self.scalar_type()
        if x < 0.85:
            return A(self.elem_type(), 1)
        if x < 0.95:
            return A(self.scalar_type(), 2)
        return TUP(self.scalar_type().kind, self.scalar_type().kind)

    def expr_using(self, ty, env, depth, exact, names):
        """An expression that uses one of `names` if a few tries find one
        (elements that are read but never used are dead code: the passes may
        drop their errors, docs/reliability.md)."""
        e = None
        for _ in range(4):
            e = self.expr(ty, env, depth, exact)
            if any(re.search(r"\b%s\b" % n, e.text) for n in names):
                return e
        return e

    # ---- environment: list of (name, V)
    def vars_of(self, env, pred):
        return [v for (n, v) in env if pred(v)]

    # ---- expressions
    def expr(self, ty, env, depth, exact=False):
        """An expression of type ty; exact=True: an exact (floating) value."""
        if ty.kind == "array":
            return self.array_expr(ty, env, depth, exact)
        if ty.kind == "tuple":
            return self.tuple_expr(ty, env, depth, exact)
        if ty.kind == BOOL:
            return self.bool_expr(env, depth)
        if ty.kind in INTEGRAL:
            return self.int_expr(ty.kind, env, depth)
        return self.float_expr(ty.kind, env, depth, exact)

    def leaf(self, ty, env, exact=False):
        cands = self.vars_of(env, lambda v: v.ty == ty and (v.exact or not exact))
        if cands and self.chance(0.7):
            return self.pick(cands)
        return self.literal(ty)

    def tuple_expr(self, ty, env, depth, exact):
        cands = self.vars_of(env, lambda v: v.ty == ty and (v.exact or not exact))
        if cands and self.chance(0.5):
            return self.pick(cands)
        parts = [self.expr(e, env, depth - 1, exact) for e in ty.elems]
        return V("(" + ", ".join(p.text for p in parts) + ")", ty, exact=all(p.exact for p in parts),
                 mag=max_mag(parts), frac=max(p.frac for p in parts))

    # -- integers
    def int_expr(self, k, env, depth):
        ty = S(k)
        if depth <= 0:
            return self.leaf(ty, env)
        c = self.r.randint(0, 23)
        d = depth - 1
        if c <= 5:
            a, b = self.int_expr(k, env, d), self.int_expr(k, env, d)
            op = self.pick(["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "+", "-", "*"])
            return V(paren("%s %s %s" % (a.text, op, b.text)), ty, mag=int_mag(op, a, b, k))
        if c == 6:
            a = self.int_expr(k, env, d)
            op = self.pick(["-", "~"])
            return V(paren(op + a.text), ty, mag=None if a.mag is None else a.mag + 1)
        if c == 7:
            f = self.pick(["abs", "min", "max"])
            a = self.int_expr(k, env, d)
            if f == "abs":
                return V("abs(%s)" % a.text, ty, mag=a.mag)
            b = self.int_expr(k, env, d)
            return V("%s(%s, %s)" % (f, a.text, b.text), ty, mag=max_mag([a, b]))
        if c == 8:
            return self.if_expr(ty, env, d)
        if c == 9:
            return self.let_expr(ty, env, d)
        if c == 10:
            # a reduction of an integer array
            arr = self.array_expr(A(k), env, d)
            f = self.pick(["sum", "product", "maximum", "minimum", "reduce", "reduce", "count", "argmin", "argmax"])
            if f == "count":
                if k != INT:
                    return V("long(count(%s, %s))" % (self.lambda_pred(arr.ty.elem, env, d), arr.text), ty, mag=MAX_LEN * 8)
                return V("count(%s, %s)" % (self.lambda_pred(arr.ty.elem, env, d), arr.text), ty, mag=MAX_LEN * 8)
            if f in ("argmin", "argmax"):
                t = "%s(%s)" % (f, arr.text)
                return V(t if k == INT else "long(%s)" % t, ty, mag=MAX_LEN * 8)
            if f == "reduce":
                op, ne = self.assoc_op(S(k), env, d, commutative=False)
                return V("reduce(%s, %s, %s)" % (op, ne, arr.text), ty, mag=None)
            return V("%s(%s)" % (f, arr.text), ty, mag=None)
        if c == 11:
            # an element of an array (index reduced into range)
            arr = self.array_expr(A(k), env, d)
            return self.element(arr, env, d)
        if c == 12:
            # size and length
            arr = self.array_expr(A(self.elem_type()), env, d)
            t = self.pick(["length(%s)", "%s.size(0)"]) % arr.text
            return V(t if k == INT else "long(%s)" % t, ty, mag=MAX_LEN * 8)
        if c == 13:
            # conversion from another scalar type (exact, in range)
            src = self.pick([INT, LONG, DOUBLE, FLOAT, BOOL])
            if src == BOOL:
                return V("%s(%s)" % (k, self.bool_expr(env, d).text), ty, mag=1)
            if src in INTEGRAL:
                a = self.int_expr(src, env, d)
                return V("%s(%s)" % (k, a.text), ty, mag=a.mag if src == k or k == LONG else None)
            a = self.float_expr(src, env, d, exact=True)
            if a.mag is not None and a.mag < 2 ** 30:
                return V("%s(%s)" % (k, a.text), ty, mag=a.mag)
            return self.leaf(ty, env)
        if c == 14:
            return self.loop_expr(ty, env, d)
        if c == 15:
            # tuple projection
            other = self.scalar_type()
            tt = TUP(k, other.kind) if self.chance(0.5) else TUP(other.kind, k)
            t = self.tuple_expr(tt, env, d, False)
            idx = 0 if tt.elems[0].kind == k else 1
            return V("%s.%d" % (t.text, idx), ty, mag=None)
        if c == 16:
            return self.call_def(ty, env, d)
        if c == 17:
            # a rank-2 element
            arr = self.array_expr(A(k, 2), env, d)
            return self.element(arr, env, d)
        return self.leaf(ty, env)

    # -- floats
    def float_expr(self, k, env, depth, exact=False):
        ty = S(k)
        if depth <= 0:
            return self.leaf(ty, env, exact)
        d = depth - 1
        for _ in range(4):
            v = self.float_try(k, env, d, exact)
            if v is not None and (not exact or (v.exact and fits(v, k))) and (v.mag is None or v.mag <= MAX_MAG):
                return v
        return self.leaf(ty, env, exact)

    def float_try(self, k, env, d, exact):
        ty = S(k)
        c = self.r.randint(0, 22)
        if c <= 5:
            a, b = self.float_expr(k, env, d, exact), self.float_expr(k, env, d, exact)
            op = self.pick(["+", "-", "*"])
            if op == "*":
                mag, frac = a.mag * b.mag, a.frac + b.frac
            else:
                mag, frac = a.mag + b.mag, max(a.frac, b.frac)
            v = V(paren("%s %s %s" % (a.text, op, b.text)), ty, exact=a.exact and b.exact, mag=mag, frac=frac)
            if v.exact and not fits(v, k):
                v.exact = False
            return v
        if c == 6 and not exact:
            a, b = self.float_expr(k, env, d), self.float_expr(k, env, d, exact=True)
            # the denominator is at least 1 in magnitude: no inf, no NaN
            return V(paren("%s / (abs(%s) + %s)" % (a.text, b.text, fmt_float(1, k))), ty, exact=False, mag=a.mag)
        if c == 7 and not exact:
            a = self.float_expr(k, env, d)
            f = self.pick(["sqrt", "exp", "log", "sin", "cos", "erf", "atan2", "pow", "tan"])
            one = fmt_float(1, k)
            if f == "sqrt":
                return V("sqrt(abs(%s))" % a.text, ty, exact=False, mag=max(1.0, a.mag ** 0.5))
            if f == "exp":
                return V("exp(min(max(%s, %s), %s))" % (a.text, fmt_float(-8, k), fmt_float(8, k)), ty, exact=False, mag=3000.0)
            if f == "log":
                return V("log(abs(%s) + %s)" % (a.text, one), ty, exact=False, mag=10.0)
            if f == "tan":
                return V("tan(min(max(%s, %s), %s))" % (a.text, fmt_float(-1, k), one), ty, exact=False, mag=2.0)
            if f == "atan2":
                b = self.float_expr(k, env, d)
                return V("atan2(%s, abs(%s) + %s)" % (a.text, b.text, one), ty, exact=False, mag=4.0)
            if f == "pow":
                e = self.pick(["0.5", "2.0", "1.5", "3.0", "-1.0"])
                e = e + ("f" if k == FLOAT else "")
                base = "(abs(min(max(%s, %s), %s)) + %s)" % (a.text, fmt_float(-20, k), fmt_float(20, k), one)
                return V("pow(%s, %s)" % (base, e if not e.startswith("-") else paren(e)), ty, exact=False, mag=21.0 ** 3)
            return V("%s(%s)" % (f, a.text), ty, exact=False, mag=1.0)
        if c == 8:
            a = self.float_expr(k, env, d, exact)
            f = self.pick(["abs", "-", "floor", "ceil", "round", "min", "max"])
            if f == "-":
                return V(paren("-" + a.text), ty, exact=a.exact, mag=a.mag, frac=a.frac)
            if f in ("floor", "ceil", "round"):
                if not a.exact:
                    return None
                return V("%s(%s)" % (f, a.text), ty, exact=True, mag=a.mag + 1, frac=0)
            if f in ("min", "max"):
                b = self.float_expr(k, env, d, exact)
                return V("%s(%s, %s)" % (f, a.text, b.text), ty, exact=a.exact and b.exact,
                         mag=max(a.mag, b.mag), frac=max(a.frac, b.frac))
            return V("abs(%s)" % a.text, ty, exact=a.exact, mag=a.mag, frac=a.frac)
        if c == 9:
            return self.if_expr(ty, env, d, exact)
        if c == 10:
            return self.let_expr(ty, env, d, exact)
        if c == 11:
            arr = self.array_expr(A(k), env, d, exact)
            f = self.pick(["sum", "maximum", "minimum", "reduce", "dot"])
            if f == "sum":
                return V("sum(%s)" % arr.text, ty, exact=arr.exact, mag=arr.mag * arr.length, frac=arr.frac)
            if f == "dot":
                b = self.array_like(arr, env, d, exact)
                return V("dot(%s, %s)" % (arr.text, b.text), ty, exact=arr.exact and b.exact,
                         mag=arr.mag * b.mag * arr.length, frac=arr.frac + b.frac)
            if f == "reduce":
                op, ne = self.assoc_op(S(k), env, d, commutative=False, exact_values=arr.exact)
                return V("reduce(%s, %s, %s)" % (op, ne, arr.text), ty, exact=arr.exact,
                         mag=max(arr.mag * arr.length, 1e30 if "m" in op else 0) if False else arr.mag * arr.length,
                         frac=arr.frac)
            return V("%s(%s)" % (f, arr.text), ty, exact=arr.exact, mag=arr.mag, frac=arr.frac)
        if c == 12:
            arr = self.array_expr(A(k), env, d, exact)
            return self.element(arr, env, d)
        if c == 13:
            src = self.pick([INT, LONG, FLOATING[0] if k == DOUBLE else DOUBLE])
            if src in INTEGRAL:
                a = self.int_expr(src, env, d)
                ex = a.mag is not None and a.mag < 2 ** MANTISSA[k]
                return V("%s(%s)" % (k, a.text), ty, exact=ex, mag=a.mag if a.mag is not None else 2.0 ** 63,
                         frac=0)
            a = self.float_expr(src, env, d, exact)
            v = V("%s(%s)" % (k, a.text), ty, exact=a.exact, mag=a.mag, frac=a.frac)
            if v.exact and not fits(v, k):
                v.exact = False
            return v
        if c == 14:
            return self.loop_expr(ty, env, d, exact)
        if c == 15:
            return self.call_def(ty, env, d, exact)
        if c == 16:
            arr = self.array_expr(A(k, 2), env, d, exact)
            return self.element(arr, env, d)
        return self.leaf(ty, env, exact)

    # -- booleans
    def bool_expr(self, env, depth):
        ty = S(BOOL)
        if depth <= 0:
            return self.leaf(ty, env)
        d = depth - 1
        c = self.r.randint(0, 12)
        if c <= 4:
            k = self.pick(NUMERIC)
            a, b = self.expr(S(k), env, d, exact=True), self.expr(S(k), env, d, exact=True)
            op = self.pick(["==", "!=", "<", "<=", ">", ">="])
            return V(paren("%s %s %s" % (a.text, op, b.text)), ty)
        if c <= 6:
            a, b = self.bool_expr(env, d), self.bool_expr(env, d)
            op = self.pick(["&&", "||", "&", "|", "^", "==", "!="])
            return V(paren("%s %s %s" % (a.text, op, b.text)), ty)
        if c == 7:
            return V(paren("!" + self.bool_expr(env, d).text), ty)
        if c == 8:
            arr = self.array_expr(A(self.scalar_type()), env, d, exact=True)
            f = self.pick(["any", "all"])
            return V("%s(%s, %s)" % (f, self.lambda_pred(arr.ty.elem, env, d), arr.text), ty)
        if c == 9:
            return self.if_expr(ty, env, d)
        if c == 10:
            arr = self.array_expr(A(BOOL), env, d)
            return self.element(arr, env, d)
        if c == 11:
            k = self.pick(FLOATING)
            return V("isnan(%s)" % self.float_expr(k, env, d).text, ty)
        return self.leaf(ty, env)

    # -- shared forms
    def if_expr(self, ty, env, d, exact=False):
        c = self.bool_expr(env, d)
        a, b = self.expr(ty, env, d, exact), self.expr(ty, env, d, exact)
        return join_v(paren("if %s then %s else %s" % (c.text, a.text, b.text)), ty, [a, b])

    def let_expr(self, ty, env, d, exact=False):
        vt = self.value_type()
        val = self.expr(vt, env, d)
        name = self.fresh("l")
        body = self.expr(ty, env + [(name, rename(val, name))], d, exact)
        if name not in body.text:  # keep every binding used (no dead reads)
            body = join_v(body.text, ty, [body])
            return body
        return join_v(paren("let %s = %s in %s" % (name, val.text, body.text)), ty, [body])

    def loop_expr(self, ty, env, d, exact=False):
        n = self.r.randint(0, 5)
        acc = self.fresh("acc")
        i = self.fresh("i")
        init = self.expr(ty, env, d, exact)
        if ty.kind in INTEGRAL:
            step = self.int_expr(ty.kind, env + [(acc, V(acc, ty, mag=None))], d)
            iv = i if ty.kind == INT else "long(%s)" % i
            body = paren("%s + %s * %s" % (acc, step.text, iv)) if self.chance(0.5) else paren("%s ^ %s" % (step.text, acc))
            return V(paren("loop (%s = %s) for %s < %d do %s" % (acc, init.text, i, n, body)), ty, mag=None)
        if ty.kind in FLOATING:
            # acc' = max(min(acc * c + x, 64), -64) stays exact with c in {0.5, 1, -1}
            x = self.float_expr(ty.kind, env + [(i, V(i, S(INT), mag=8))], d, exact)
            cst = fmt_float(self.pick([0.5, 1.0, -1.0]), ty.kind)
            body = "max(min(%s * %s + %s, %s), %s)" % (acc, cst, x.text, fmt_float(64, ty.kind), fmt_float(-64, ty.kind))
            ok = init.exact and x.exact
            frac = max(init.frac, x.frac) + n
            v = V(paren("loop (%s = %s) for %s < %d do %s" % (acc, init.text, i, n, body)), ty,
                  exact=ok, mag=max(64.0, init.mag), frac=frac)
            if v.exact and not fits(v, ty.kind):
                v.exact = False
            return v
        return self.leaf(ty, env, exact)

    def element(self, arr, env, d):
        """arr[i] (or arr[i, j]) with indices reduced into range; guarded when
        the array may be empty."""
        ety = arr.ty.elem
        idx = []
        for axis in range(arr.ty.rank):
            i = self.int_expr(INT, env, d)
            idx.append("(%s & 1023) %% %s.size(%d)" % (i.text, paren(arr.text), axis))
        text = "%s[%s]" % (paren(arr.text), ", ".join(idx))
        res = V(text, ety, exact=arr.exact, mag=arr.mag, frac=arr.frac)
        if arr.nonempty or self.chance(0.1):
            return res  # may raise when empty: both sides must then fail
        cond = " && ".join("%s.size(%d) > 0" % (paren(arr.text), a) for a in range(arr.ty.rank))
        other = self.literal(ety)
        return join_v(paren("if %s then %s else %s" % (cond, text, other.text)), ety, [res, other])

    def call_def(self, ty, env, d, exact=False):
        """A call of a helper def (made on demand), possibly higher order."""
        name = self.fresh("h")
        params = [self.scalar_type() for _ in range(self.r.randint(1, 3))]
        pnames = [self.fresh("p") for _ in params]
        penv = [(n, V(n, t, exact=True, mag=16.0 if t.kind in FLOATING else 100, frac=2)) for n, t in zip(pnames, params)]
        if ty.kind in INTEGRAL:
            for (n, v) in penv:
                if v.ty.kind in INTEGRAL:
                    v.mag = None
        body = self.expr(ty, penv, min(d, 3), exact)
        if not exact and self.chance(0.3) and ty.scalar:
            # higher order: the def takes a function argument
            fname = self.fresh("f")
            self.defs.append("def %s %s((%s) -> %s %s, %s) = %s(%s);\n" % (
                ty, name, ty, ty, fname, ", ".join("%s %s" % (t, n) for t, n in zip(params, pnames)),
                fname, body.text))
            args = [self.expr(t, env, d, exact=True) for t in params]
            lam_x = self.fresh("x")
            lam = "\\%s -> %s" % (lam_x, self.expr(ty, [(lam_x, V(lam_x, ty, exact=body.exact, mag=body.mag, frac=body.frac))],
                                                   1, exact).text) if ty.kind in (INT, LONG, BOOL) else "\\%s -> %s" % (lam_x, lam_x)
            return V("%s(%s, %s)" % (name, lam, ", ".join(a.text for a in args)), ty, exact=False,
                     mag=None if ty.kind in INTEGRAL else MAX_MAG)
        self.defs.append("def %s %s(%s) = %s;\n" % (ty, name, ", ".join("%s %s" % (t, n) for t, n in zip(params, pnames)),
                                                     body.text))
        args = [self.expr(t, env, d, exact=True) for t in params]
        # the params were assumed exact with |p| <= 16 (floats): pass small values
        args_t = []
        for t, a in zip(params, args):
            if t.kind in FLOATING:
                args_t.append("min(max(%s, %s), %s)" % (a.text, fmt_float(-16, t.kind), fmt_float(16, t.kind)))
            elif t.kind in INTEGRAL:
                args_t.append(paren("%s %% %s" % (a.text, fmt_int(101, t.kind))) if ty.kind in FLOATING else a.text)
            else:
                args_t.append(a.text)
        return V("%s(%s)" % (name, ", ".join(args_t)), ty, exact=body.exact, mag=body.mag, frac=body.frac)

    # -- functions as arguments
    def lambda_pred(self, ety, env, d):
        x = self.fresh("x")
        if ety.kind == "tuple":
            names = [self.fresh("x") for _ in ety.elems]
            benv = env + [(n, V(n, t, mag=None if t.kind in INTEGRAL else 16.0, frac=2)) for n, t in zip(names, ety.elems)]
            return "\\(%s) -> %s" % (", ".join(names), self.bool_expr(benv, min(d, 2)).text)
        benv = env + [(x, V(x, ety, mag=None if ety.kind in INTEGRAL else 16.0, frac=2))]
        return "\\%s -> %s" % (x, self.bool_expr(benv, min(d, 2)).text)

    def assoc_op(self, ty, env, d, commutative=True, exact_values=True):
        """An associative operator (text) and its neutral element (text)."""
        k = ty.kind
        if k == "tuple":
            ops = [self.assoc_op(e, env, d, commutative=True) for e in ty.elems]
            n = len(ty.elems)
            a = [self.fresh("a") for _ in range(n)]
            b = [self.fresh("b") for _ in range(n)]
            comps = []
            for (op, _), x, y in zip(ops, a, b):
                comps.append(apply_op(op, x, y))
            if not commutative and n == 2 and all(e.kind == ty.elems[0].kind for e in ty.elems) and \
                    ty.elems[0].kind in INTEGRAL and self.chance(0.5):
                # affine maps composed: associative, not commutative
                one, zero = fmt_int(1, ty.elems[0].kind), fmt_int(0, ty.elems[0].kind)
                return ("\\(%s, %s) (%s, %s) -> (%s * %s, %s * %s + %s)" % (a[0], a[1], b[0], b[1], a[0], b[0], a[1], b[0], b[1]),
                        "(%s, %s)" % (one, zero))
            return ("\\(%s) (%s) -> (%s)" % (", ".join(a), ", ".join(b), ", ".join(comps)),
                    "(" + ", ".join(ne for _, ne in ops) + ")")
        if k == BOOL:
            return self.pick([("(&&)", "true"), ("(||)", "false"), ("(^)", "false"), ("(!=)", "false")])
        if k in INTEGRAL:
            lo, hi = (INT_MIN, INT_MAX) if k == INT else (LONG_MIN, LONG_MAX)
            choices = [("(+)", fmt_int(0, k)), ("(*)", fmt_int(1, k)), ("(min)", fmt_int(hi, k)),
                       ("(max)", fmt_int(lo, k)), ("(&)", fmt_int(-1, k)), ("(|)", fmt_int(0, k)),
                       ("(^)", fmt_int(0, k)), ("\\x y -> x + y", fmt_int(0, k)), ("min", fmt_int(hi, k))]
            if not commutative:
                choices += [("\\x y -> if y != %s then y else x" % fmt_int(0, k), fmt_int(0, k)),
                            ("\\x y -> if x != %s then x else y" % fmt_int(0, k), fmt_int(0, k))]
            return self.pick(choices)
        # floats: exact + (bounded magnitudes), min, max
        big = fmt_float(1e30 if k == FLOAT else 1e300, k)
        nbig = fmt_float(-1e30 if k == FLOAT else -1e300, k)
        return self.pick([("(+)", fmt_float(0, k)), ("(min)", big), ("(max)", nbig), ("\\x y -> x + y", fmt_float(0, k)),
                          ("max", nbig)])

    def array_like(self, arr, env, d, exact=False):
        """An array of the same type and length as arr."""
        ety = arr.ty.elem
        x = self.fresh("x")
        head = self.expr(ety, env + [(x, V(x, ety, exact=arr.exact, mag=arr.mag, frac=arr.frac))], min(d, 2), exact)
        if x not in head.text and not self.chance(0.3):
            return arr
        return V("[%s | %s <- %s]" % (head.text, x, arr.text), arr.ty, exact=head.exact, mag=head.mag, frac=head.frac,
                 length=arr.length, nonempty=arr.nonempty)

    # -- arrays
    def array_expr(self, ty, env, depth, exact=False):
        if ty.rank >= 2:
            return self.array2_expr(ty, env, depth, exact)
        ety = ty.elem
        cands = self.vars_of(env, lambda v: v.ty == ty and (v.exact or not exact))
        if depth <= 0 or (cands and self.chance(0.35)):
            if cands:
                return self.pick(cands)
            return self.array_literal(ty, env)
        d = depth - 1
        for _ in range(4):
            v = self.array_try(ty, env, d, exact)
            if v is not None and (not exact or v.exact) and (v.mag is None or v.mag <= MAX_MAG * MAX_LEN):
                return v
        return self.pick(cands) if cands else self.array_literal(ty, env)

    def array_literal(self, ty, env):
        n = self.r.randint(0, 5) if self.chance(0.2) else self.r.randint(1, 5)
        if n == 0:
            # an empty literal needs its type from the context: a typed let
            return V("(let %s = replicate(0, %s) in %s)" % ("e" + str(self.counter + 1), self.literal(ty.elem).text,
                                                           "e" + str(self.counter + 1)), ty, mag=0, frac=0, length=0)
        parts = [self.literal(ty.elem) for _ in range(n)]
        return V("[" + ", ".join(p.text for p in parts) + "]", ty, exact=all(p.exact for p in parts),
                 mag=max_mag(parts), frac=max(p.frac for p in parts), length=n, nonempty=True)

    def size_expr(self, env, d, limit=6):
        """A small non-negative int."""
        if self.chance(0.4):
            return V(str(self.r.randint(0, limit)), S(INT), mag=limit)
        i = self.int_expr(INT, env, min(d, 2))
        return V(paren("%s & %d" % (i.text, (1 << (limit.bit_length() - 1)) - 1 if limit > 1 else 1)), S(INT), mag=limit)

    def array_try(self, ty, env, d, exact):
        ety = ty.elem
        k = ety.kind
        c = self.r.randint(0, 30)
        if c <= 5:
            return self.comprehension(ty, env, d, exact)
        if c == 6 and k in INTEGRAL:
            a = self.int_expr(k, env, d)
            n = self.size_expr(env, d)
            return V("[%s ..< %s]" % (paren("%s %% %s" % (a.text, fmt_int(50, k))),
                                       paren("%s %% %s + %s" % (a.text, fmt_int(50, k), n.text if k == INT else "long(%s)" % n.text))),
                     ty, mag=60, length=6)
        if c == 7 and k in INTEGRAL:
            n = self.size_expr(env, d)
            return V("iota(%s)" % (n.text if k == INT else "long(%s)" % n.text), ty, mag=8, length=6)
        if c == 8:
            n = self.size_expr(env, d)
            v = self.expr(ety, env, d, exact)
            return V("replicate(%s, %s)" % (n.text, v.text), ty, exact=v.exact, mag=v.mag, frac=v.frac, length=6)
        if c == 9:
            src = self.array_expr(A(self.elem_type()), env, d)
            x = self.fresh("x")
            if src.ty.elem.kind == "tuple":
                names = [self.fresh("x") for _ in src.ty.elem.elems]
                benv = env + [(n, V(n, t, exact=src.exact, mag=src.mag, frac=src.frac)) for n, t in zip(names, src.ty.elem.elems)]
                pat = "(" + ", ".join(names) + ")"
            else:
                benv = env + [(x, V(x, src.ty.elem, exact=src.exact, mag=src.mag, frac=src.frac))]
                pat = x
            head = self.expr_using(ety, benv, min(d, 3), exact, names if pat != x else [x])
            return V("map(\\%s -> %s, %s)" % (pat, head.text, src.text), ty, exact=head.exact, mag=head.mag,
                     frac=head.frac, length=src.length, nonempty=src.nonempty)
        if c == 10:
            src = self.array_expr(ty, env, d, exact)
            return V("filter(%s, %s)" % (self.lambda_pred(ety, env, d), src.text), ty, exact=src.exact,
                     mag=src.mag, frac=src.frac, length=src.length)
        if c == 11:
            src = self.array_expr(ty, env, d, exact)
            op, ne = self.assoc_op(ety, env, d, commutative=False)
            if k in FLOATING and "+" in op:
                mag = src.mag * src.length
            else:
                mag = src.mag if k not in INTEGRAL else None
            if op.startswith("(min") or op.startswith("(max") or op.startswith("max") or op.startswith("min"):
                mag = 1e300  # the neutral element may come out
                if k in FLOATING:
                    return None
            return V("scan(%s, %s, %s)" % (op, ne, src.text), ty, exact=src.exact, mag=mag, frac=src.frac,
                     length=src.length, nonempty=src.nonempty)
        if c == 12:
            src = self.array_expr(ty, env, d, exact)
            f = self.pick(["reverse(%s)", "%s[%s.size(0) - 1 : 0 : -1]"])
            t = f % ((src.text,) if f.startswith("reverse") else (paren(src.text), paren(src.text)))
            return V(t, ty, exact=src.exact, mag=src.mag, frac=src.frac, length=src.length, nonempty=src.nonempty)
        if c == 13:
            a, b = self.array_expr(ty, env, d, exact), self.array_expr(ty, env, d, exact)
            t = self.pick(["%s ++ %s", "concat(%s, %s)"]) % (a.text, b.text)
            return join_v(paren(t), ty, [a, b], length=a.length + b.length, nonempty=a.nonempty or b.nonempty)
        if c == 14:
            src = self.array_expr(ty, env, d, exact)
            f = self.pick(["take", "drop", "rotate"])
            n = self.int_expr(INT, env, min(d, 2)) if f == "rotate" else self.size_expr(env, d, 8)
            if f != "rotate" and self.chance(0.85):
                # mostly within the length (outside [0, length] take/drop clamp)
                n = V("min(%s, length(%s))" % (n.text, src.text), S(INT), mag=8)
            return V("%s(%s, %s)" % (f, n.text, src.text), ty, exact=src.exact, mag=src.mag, frac=src.frac,
                     length=src.length, nonempty=src.nonempty and f == "rotate")
        if c == 15 and k in NUMERIC:
            src = self.array_expr(ty, env, d, exact=True)
            return V("sort(%s)" % src.text, ty, exact=src.exact, mag=src.mag, frac=src.frac, length=src.length,
                     nonempty=src.nonempty)
        if c == 16:
            src = self.array_expr(ty, env, d, exact)
            x = self.fresh("x")
            kt = S(self.pick(NUMERIC))
            if ety.kind == "tuple":
                names = [self.fresh("x") for _ in ety.elems]
                benv = env + [(n, V(n, t, exact=src.exact, mag=src.mag, frac=src.frac)) for n, t in zip(names, ety.elems)]
                pat = "(" + ", ".join(names) + ")"
            else:
                benv = env + [(x, V(x, ety, exact=src.exact, mag=src.mag, frac=src.frac))]
                pat = x
            key = self.expr(kt, benv, 2, exact=True)
            return V("sort_by(\\%s -> %s, %s)" % (pat, key.text, src.text), ty, exact=src.exact, mag=src.mag,
                     frac=src.frac, length=src.length, nonempty=src.nonempty)
        if c == 17:
            src = self.array_expr(ty, env, d, exact)
            idx = self.index_array(src, env, d)
            return V("gather(%s, %s)" % (src.text, idx.text), ty, exact=src.exact, mag=src.mag, frac=src.frac,
                     length=idx.length)
        if c == 18:
            dest = self.array_expr(ty, env, d, exact)
            vals = self.array_expr(ty, env, d, exact)
            # distinct indices, some out of range (ignored by scatter)
            x = self.fresh("x")
            idx = "[%s * 2 - 1 | %s <- iota(length(%s))]" % (x, x, vals.text) if self.chance(0.5) else \
                "reverse(iota(length(%s)))" % vals.text
            return join_v("scatter(%s, %s, %s)" % (dest.text, idx, vals.text), ty, [dest, vals], length=dest.length,
                          nonempty=dest.nonempty)
        if c == 19 and k in NUMERIC + [BOOL] and ety.scalar:
            n = self.size_expr(env, d)
            vals = self.array_expr(ty, env, d, exact)
            op, ne = self.assoc_op(ety, env, d, commutative=True)
            if k in FLOATING and ("min" in op or "max" in op):
                return None
            ik = self.pick(INTEGRAL)
            x = self.fresh("x")
            idx = "[%s(%s %% 7) - %s | %s <- iota(length(%s))]" % (ik if ik == LONG else "", x, fmt_int(1, ik), x, vals.text)
            nn = n.text if ik == INT else "long(%s)" % n.text
            mag = vals.mag * vals.length if k in FLOATING else None
            if self.chance(0.35):
                # keys computed once and read by two hists of different bins,
                # the second over a flattened 2-D index (a map and its hists
                # in one pass on CPUs: lowering/src/FuseMultiHist.cpp)
                vs, m, ks = self.fresh("vs"), self.fresh("m"), self.fresh("ks")
                y, i, j = self.fresh("x"), self.fresh("i"), self.fresh("j")
                keys = "[%s(%s %% 7) - %s | %s <- iota(%s)]" % (ik if ik == LONG else "", y, fmt_int(1, ik), y, m)
                op2, ne2 = self.assoc_op(ety, env, d, commutative=True)
                if k in FLOATING and ("min" in op2 or "max" in op2):
                    op2, ne2 = op, ne
                two = "2L" if ik == LONG else "2"
                flat = "[%s[%s] * %s + %s | %s <- iota(%s), %s <- iota(2)]" % (ks, i, two, j if ik == INT else
                                                                              "long(%s)" % j, i, m, j)
                vv = self.fresh("v")
                vals2 = "flatten([[%s, %s] | %s <- %s])" % (vv, vv, vv, vs)
                h1 = "hist(%s, %s, %s, %s, %s)" % (op, ne, nn, ks, vs)
                h2 = "hist(%s, %s, %s, %s, %s)" % (op2, ne2, nn, flat, vals2)
                return V(paren("let %s = %s in let %s = length(%s) in let %s = %s in %s ++ %s" %
                               (vs, vals.text, m, vs, ks, keys, h1, h2)), ty,
                         exact=vals.exact,
                         mag=None if mag is None else mag * 2, frac=vals.frac, length=12)
            return V("hist(%s, %s, %s, %s, %s)" % (op, ne, nn, idx, vals.text), ty, exact=vals.exact, mag=mag,
                     frac=vals.frac, length=6)
        if c == 20 and ety.scalar:
            src = self.array_expr(ty, env, d, exact)
            op, ne = self.assoc_op(ety, env, d, commutative=False)
            if k in FLOATING and ("min" in op or "max" in op):
                return None
            x = self.fresh("x")
            flags = "[(%s %% 3) == 0 | %s <- iota(length(%s))]" % (x, x, src.text)
            f = self.pick(["segmented_scan", "segmented_reduce"])
            mag = src.mag * src.length if k in FLOATING else None
            return V("%s(%s, %s, %s, %s)" % (f, op, ne, flags, src.text), ty, exact=src.exact, mag=mag,
                     frac=src.frac, length=src.length)
        if c == 21 and k == INT:
            f = self.pick(["repl_iota", "segm_iota"])
            if f == "repl_iota":
                reps = self.array_expr(A(INT), env, d)
                return V("repl_iota([%s & 3 | %s <- %s])" % ("r", "r", reps.text), ty, mag=MAX_LEN * 4, length=MAX_LEN * 3)
            flags = self.array_expr(A(BOOL), env, d)
            return V("segm_iota(%s)" % flags.text, ty, mag=MAX_LEN, length=MAX_LEN)
        if c == 22:
            # expand: irregular, flattened
            src = self.array_expr(A(self.scalar_type()), env, d, exact=True)
            x, i = self.fresh("x"), self.fresh("i")
            benv = env + [(x, V(x, src.ty.elem, exact=src.exact, mag=src.mag, frac=src.frac))]
            sz = self.size_expr(benv, 2, 4)
            get = self.expr(ety, benv + [(i, V(i, S(INT), mag=4))], min(d, 2), exact)
            if self.chance(0.5) or ety.kind == "tuple":
                return V("expand(\\%s -> %s, \\%s %s -> %s, %s)" % (x, sz.text, x, i, get.text, src.text), ty,
                         exact=get.exact, mag=get.mag, frac=get.frac, length=src.length * 4)
            op, ne = self.assoc_op(ety, env, d, commutative=False)
            if k in FLOATING and ("min" in op or "max" in op):
                return None
            mag = get.mag * 4 if k in FLOATING else None
            return V("expand_reduce(\\%s -> %s, \\%s %s -> %s, %s, %s, %s)" % (x, sz.text, x, i, get.text, op, ne, src.text),
                     ty, exact=get.exact, mag=mag, frac=get.frac, length=src.length, nonempty=src.nonempty)
        if c == 23 and k in NUMERIC:
            # element-wise arithmetic on arrays (same shape: from one source)
            a = self.array_expr(ty, env, d, exact)
            op = self.pick(["+", "-", "*"])
            s = self.expr(ety, env, d, exact=True)
            if k in FLOATING:
                s = V(fmt_float(self.pick([0.5, 2.0, -1.0, 0.25]), k), ety, mag=2.0, frac=2)
            t = "%s %s %s" % (a.text, op, s.text) if self.chance(0.5) else "%s %s %s" % (a.text, op, a.text)
            mag = (a.mag * (s.mag if "* " + s.text in t else a.mag) if op == "*" else a.mag * 2) if a.mag is not None and k in FLOATING else None
            v = V(paren(t), ty, exact=a.exact, mag=mag, frac=a.frac * 2 + 2, length=a.length, nonempty=a.nonempty)
            if k in FLOATING and v.exact and not fits(v, k):
                v.exact = False
            return v
        if c == 24:
            src = self.array_expr(A(ety, 2), env, d, exact)
            f = self.pick(["flatten(%s)", "%s[0, :]", "%s[:, 0]", "flatten(transpose(%s))"])
            t = f % paren(src.text)
            length = src.length * 4 if "flatten" in f else 4
            res = V(t, ty, exact=src.exact, mag=src.mag, frac=src.frac, length=length, nonempty=src.nonempty and "flatten" in f)
            if "[" in f:
                cond = "%s.size(0) > 0 && %s.size(1) > 0" % (paren(src.text), paren(src.text))
                alt = self.array_literal(ty, env)
                return join_v(paren("if %s then %s else %s" % (cond, t, alt.text)), ty, [res, alt])
            return res
        if c == 25:
            src = self.array_expr(ty, env, d, exact)
            v = self.expr(ety, env, d, exact)
            i = self.int_expr(INT, env, min(d, 2))
            t = "%s with [(%s & 1023) %% max(%s.size(0), 1)] = %s" % (paren(src.text), i.text, paren(src.text), v.text)
            res = join_v(paren(t), ty, [src, v], length=src.length, nonempty=src.nonempty)
            return res if src.nonempty else join_v(paren("if %s.size(0) > 0 then %s else %s" % (paren(src.text), t, src.text)),
                                                   ty, [res, src])
        if c == 26 and ety.kind == "tuple":
            parts = [self.array_expr(A(e), env, d, exact) for e in ety.elems]
            base = parts[0]
            # zip needs equal lengths: derive the others from the first
            others = []
            for p, e in zip(parts[1:], ety.elems[1:]):
                x = self.fresh("x")
                head = self.expr(e, env + [(x, base_elem(base, x))], 2, exact)
                others.append(V("[%s | %s <- %s]" % (head.text, x, base.text), A(e), exact=head.exact, mag=head.mag,
                                frac=head.frac))
            return join_v("zip(%s)" % ", ".join([base.text] + [o.text for o in others]), ty, [base] + others,
                          length=base.length, nonempty=base.nonempty)
        if c == 27 and ety.scalar:
            # a component of an array of tuples
            other = self.scalar_type()
            tt = A(TUP(ety.kind, other.kind)) if self.chance(0.5) else A(TUP(other.kind, ety.kind))
            src = self.array_expr(tt, env, d, exact)
            comp = 0 if tt.elem.elems[0] == ety else 1
            f = self.pick(["unzip(%s).%d", "[%s | %s <- %s]"])
            if f.startswith("unzip"):
                t = "unzip(%s).%d" % (src.text, comp)
            else:
                a, b = self.fresh("x"), self.fresh("x")
                t = "[%s | (%s, %s) <- %s]" % ([a, b][comp], a, b, src.text)
            return V(t, ty, exact=src.exact, mag=src.mag, frac=src.frac, length=src.length, nonempty=src.nonempty)
        if c == 28 and ety.scalar:
            if self.chance(0.5):
                pred = self.lambda_pred(ety, env, d)
                src = self.array_expr(ty, env, d, exact)
                return V("partition(%s, %s).%d" % (pred, src.text, self.r.randint(0, 1)), ty, exact=src.exact,
                         mag=src.mag, frac=src.frac, length=src.length)
            if k in NUMERIC + [BOOL]:
                keys_t = self.pick(INTEGRAL)
                vals = self.array_expr(ty, env, d, exact)
                op, ne = self.assoc_op(ety, env, d, commutative=True)
                if k in FLOATING and ("min" in op or "max" in op):
                    return None
                x = self.fresh("x")
                keys = "[%s(%s %% 3) | %s <- iota(length(%s))]" % (keys_t if keys_t == LONG else "", x, x, vals.text)
                mag = vals.mag * vals.length if k in FLOATING else None
                return V("reduce_by_key(%s, %s, %s, %s).1" % (op, ne, keys, vals.text), ty, exact=vals.exact,
                         mag=mag, frac=vals.frac, length=3)
        if c == 29:
            # a section with a step
            src = self.array_expr(ty, env, d, exact)
            lo, st = self.r.randint(0, 3), self.pick([1, 2, 3])
            t = "%s[%d : %s.size(0) - 1 : %d]" % (paren(src.text), lo, paren(src.text), st)
            res = V(t, ty, exact=src.exact, mag=src.mag, frac=src.frac, length=src.length)
            alt = self.array_literal(ty, env)
            return join_v(paren("if %s.size(0) > %d then %s else %s" % (paren(src.text), lo, t, alt.text)), ty, [res, alt])
        if c == 30 and k in INTEGRAL:
            # conversion of a whole array
            src = self.array_expr(A(self.pick([INT, LONG, BOOL])), env, d)
            return V("%s(%s)" % (k, src.text), ty, mag=None, length=src.length, nonempty=src.nonempty)
        return None

    def index_array(self, src, env, d):
        x = self.fresh("x")
        n = self.array_expr(A(INT), env, d)
        return V("[(%s & 1023) %% max(length(%s), 1) | %s <- %s]" % (x, src.text, x, n.text), A(INT), length=n.length)

    def comprehension(self, ty, env, d, exact):
        """[head | qualifiers] with bindings, filters, lets, zips, nesting
        (regular and irregular)."""
        ety = ty.elem
        quals, benv = [], list(env)
        src = self.array_expr(A(self.elem_type()), env, d)
        length = src.length
        x = self.fresh("x")
        if src.ty.elem.kind == "tuple" and self.chance(0.7):
            names = [self.fresh("x") for _ in src.ty.elem.elems]
            quals.append("(%s) <- %s" % (", ".join(names), src.text))
            benv += [(n, V(n, t, exact=src.exact, mag=src.mag, frac=src.frac)) for n, t in zip(names, src.ty.elem.elems)]
        else:
            quals.append("%s <- %s" % (x, src.text))
            benv.append((x, V(x, src.ty.elem, exact=src.exact, mag=src.mag, frac=src.frac)))
        branch2 = None
        if self.chance(0.25):
            # a zip branch of equal length: iota of the first's length
            y = self.fresh("y")
            branch2 = "%s <- iota(length(%s))" % (y, src.text)
            if self.chance(0.1):
                branch2 = "%s <- iota(length(%s) + 1)" % (y, src.text)  # unequal: both must fail
        for _ in range(self.r.randint(0, 2)):
            c = self.r.randint(0, 3)
            if c == 0:
                quals.append(self.bool_expr(benv, min(d, 2)).text)
            elif c == 1:
                vt = self.scalar_type()
                e = self.expr(vt, benv, min(d, 2))
                nm = self.fresh("w")
                quals.append("let %s = %s" % (nm, e.text))
                benv.append((nm, rename(e, nm)))
            elif c == 2:
                # nested: regular (size independent of earlier variables) or irregular
                z = self.fresh("z")
                if self.chance(0.5):
                    n = self.size_expr(env, 2, 3)
                else:
                    n = self.size_expr(benv, 2, 3)
                lo = self.int_expr(INT, benv, 1) if self.chance(0.3) else V("0", S(INT), mag=0)
                lo_t = paren("%s %% 4" % lo.text)
                quals.append("%s <- [%s ..< %s + %s]" % (z, lo_t, lo_t, n.text))
                if self.chance(0.4):
                    # a filter bounding z: the range is narrowed by it
                    # (docs/lowering.md, "Guarded ranges")
                    e = self.int_expr(INT, benv, 1)
                    op = self.pick(["<", "<=", ">", ">="])
                    quals.append("%s %s %s" % (z, op, e.text) if self.chance(0.5) else "%s %s %s" % (e.text, op, z))
                benv.append((z, V(z, S(INT), mag=8)))
                length *= 4
            else:
                # nested over an array
                inner = self.array_expr(A(self.scalar_type()), benv, 1)
                z = self.fresh("z")
                quals.append("%s <- %s" % (z, inner.text))
                benv.append((z, V(z, inner.ty.elem, exact=inner.exact, mag=inner.mag, frac=inner.frac)))
                length *= MAX_LEN
        if branch2:  # the head sees both branches' variables
            benv.append((y, V(y, S(INT), mag=MAX_LEN)))
        bound = [n for n, _ in benv[len(env):]]
        head = self.expr_using(ety, benv, min(d, 3), exact, bound)
        # drop `let` qualifiers nothing uses (dead code: see export())
        for k in range(len(quals) - 1, 0, -1):
            if quals[k].startswith("let "):
                nm = quals[k].split()[1]
                later = " ".join(quals[k + 1:]) + " " + head.text + " " + (branch2 or "")
                if not re.search(r"\b%s\b" % nm, later):
                    del quals[k]
        text = "[%s | %s%s]" % (head.text, ", ".join(quals), (" | " + branch2) if branch2 else "")
        return V(text, ty, exact=head.exact, mag=head.mag, frac=head.frac, length=min(length, 10000))

    def array2_expr(self, ty, env, depth, exact=False):
        ety = ty.elem
        cands = self.vars_of(env, lambda v: v.ty == ty and (v.exact or not exact))
        if depth <= 0 or (cands and self.chance(0.4)):
            if cands:
                return self.pick(cands)
            return self.array2_literal(ty)
        d = depth - 1
        c = self.r.randint(0, 7)
        if c == 0:
            i, j = self.fresh("i"), self.fresh("j")
            m, n = self.size_expr(env, d, 4), self.size_expr(env, d, 4)
            benv = env + [(i, V(i, S(INT), mag=4)), (j, V(j, S(INT), mag=4))]
            head = self.expr(ety, benv, min(d, 2), exact)
            return V("[[%s | %s <- iota(%s)] | %s <- iota(%s)]" % (head.text, j, n.text, i, m.text), ty, exact=head.exact,
                     mag=head.mag, frac=head.frac, length=4)
        if c == 1:
            src = self.array2_expr(ty, env, d, exact)
            return V("transpose(%s)" % src.text, ty, exact=src.exact, mag=src.mag, frac=src.frac, length=4)
        if c == 2:
            m = self.r.randint(0, 3)
            n = self.r.randint(0, 3)
            v = self.expr(ety, env, d, exact)
            src = "replicate(%d, %s)" % (m * n, v.text)
            return V("unflatten(%d, %d, %s)" % (m, n, src), ty, exact=v.exact, mag=v.mag, frac=v.frac, length=3)
        if c == 3:
            src = self.array2_expr(ty, env, d, exact)
            v = self.expr(ety, env, d, exact)
            t = "%s with [0, 0] = %s" % (paren(src.text), v.text)
            return join_v(paren("if %s.size(0) > 0 && %s.size(1) > 0 then %s else %s" % (
                paren(src.text), paren(src.text), t, src.text)), ty, [src, v], length=4)
        if c == 4 and ety.kind in NUMERIC:
            src = self.array2_expr(ty, env, d, exact)
            return V(paren("%s + %s" % (src.text, src.text)), ty, exact=src.exact, mag=m_mul(src.mag, 2), frac=src.frac, length=4)
        if c == 5 and ety.kind in NUMERIC:
            a = self.array2_expr(ty, env, d, exact=True)
            # A * transpose(A) has a shared inner extent
            f = self.pick(["matmul(%s, transpose(%s))", "outer(%s[0, :], %s[:, 0])"])
            if f.startswith("matmul"):
                v = V(f % (a.text, a.text), ty, exact=a.exact, mag=m_mul(m_mul(a.mag, a.mag), 4), frac=a.frac * 2, length=4)
            else:
                t = f % (paren(a.text), paren(a.text))
                alt = self.array2_literal(ty)
                v = join_v(paren("if %s.size(0) > 0 && %s.size(1) > 0 then %s else %s" % (
                    paren(a.text), paren(a.text), t, alt.text)), ty,
                    [V(t, ty, exact=a.exact, mag=m_mul(a.mag, a.mag), frac=a.frac * 2), alt], length=4)
            if ety.kind in FLOATING and v.exact and not fits(v, ety.kind):
                v.exact = False
            return v
        if c == 6:
            src = self.array2_expr(ty, env, d, exact)
            t = "%s[%s.size(0) - 1 : 0 : -1, :]" % (paren(src.text), paren(src.text))
            return V(t, ty, exact=src.exact, mag=src.mag, frac=src.frac, length=4)
        if c == 7:
            m, n = self.size_expr(env, d, 3), self.size_expr(env, d, 3)
            return V("new %s[[%s, %s]]" % (ety, m.text, n.text), ty, mag=0, length=3)
        return self.pick(cands) if cands else self.array2_literal(ty)

    def array2_literal(self, ty):
        m, n = self.r.randint(1, 3), self.r.randint(1, 3)
        rows = [[self.literal(ty.elem) for _ in range(n)] for _ in range(m)]
        flat = [x for r in rows for x in r]
        return V("[" + ", ".join("[" + ", ".join(x.text for x in r) + "]" for r in rows) + "]", ty,
                 exact=all(x.exact for x in flat), mag=max_mag(flat), frac=max(x.frac for x in flat), length=m,
                 nonempty=True)

    # ---- exports
    def export(self, index, inputs):
        nparams = self.r.randint(1, 4)
        params = []
        for p in range(nparams):
            t = self.value_type()
            name = self.fresh("a")
            params.append((name, t))
        env = []
        for name, t in params:
            mag = None if (t.kind in INTEGRAL or (t.kind == "array" and t.elem.kind in INTEGRAL)) else 16.0
            nonempty = False
            env.append((name, V(name, t, exact=True, mag=mag, frac=2, length=MAX_LEN, nonempty=nonempty)))
        rt = self.value_type()
        body_depth = self.r.randint(2, 5)
        if self.chance(0.3):
            # a block body with let statements
            lets = []
            benv = list(env)
            for _ in range(self.r.randint(1, 3)):
                vt = self.value_type()
                e = self.expr(vt, benv, body_depth - 1)
                nm = self.fresh("s")
                lets.append("  let %s = %s;\n" % (nm, e.text))
                benv.append((nm, rename(e, nm)))
            res = self.expr(rt, benv, body_depth)
            # no dead bindings: an error in dead code need not be reported
            # (dead code elimination drops it), so a dead `let` could make
            # the two sides differ legitimately
            used, kept = res.text, []
            for l in reversed(lets):
                nm = l.split()[1]
                if re.search(r"\b%s\b" % nm, used):
                    kept.insert(0, l)
                    used += l
            body = "{\n%s  return %s;\n}" % ("".join(kept), res.text) if kept else "= %s;" % res.text
        else:
            res = self.expr(rt, env, body_depth)
            body = "= %s;" % res.text
        name = "f%d" % index
        sig = "export %s %s(%s) %s\n" % (rt, name, ", ".join("%s %s" % (t, n) for n, t in params), body)
        cases = []
        for _ in range(inputs):
            cases.append(" ".join(self.input_value(t) for _, t in params))
        return name, sig, cases, rt

    def module(self, exports, inputs):
        out = []
        for e in range(exports):
            out.append(self.export(e, inputs))
        return out


def m_mul(a, b):
    return None if a is None or b is None else a * b


def base_elem(arr, x):
    return V(x, arr.ty.elem, exact=arr.exact, mag=arr.mag, frac=arr.frac)


def rename(v, name):
    return V(name, v.ty, exact=v.exact, mag=v.mag, frac=v.frac, length=v.length, nonempty=v.nonempty)


def is_int_typed(ty):
    return ty.kind in INTEGRAL or (ty.kind == "array" and ty.elem.kind in INTEGRAL)


def max_mag(vs):
    """Integer magnitudes may be unknown (None); a tuple's magnitude is that
    of its floating-point components."""
    if any(v.mag is None and is_int_typed(v.ty) for v in vs) and all(is_int_typed(v.ty) for v in vs):
        return None
    return max([v.mag for v in vs if v.mag is not None] + [0])


def join_v(text, ty, vs, length=None, nonempty=False):
    mag = max_mag(vs)
    if mag is None and not is_int_typed(ty):
        mag = 0
    return V(text, ty, exact=all(v.exact for v in vs), mag=mag, frac=max([v.frac for v in vs] + [0]),
             length=length if length is not None else max([v.length for v in vs] + [0]), nonempty=nonempty)


def int_mag(op, a, b, k):
    bits = 31 if k == INT else 63
    if a.mag is None or b.mag is None:
        return None
    if op in ("+", "-"):
        m = a.mag + b.mag
    elif op == "*":
        m = a.mag * b.mag
    elif op in ("/",):
        m = a.mag
    elif op == "%":
        m = min(a.mag, b.mag)
    else:
        return None
    return m if m < 2 ** bits - 1 else None


def apply_op(op, x, y):
    if op.startswith("\\"):
        return "%s + %s" % (x, y) if "x + y" in op else "max(%s, %s)" % (x, y)
    if op in ("min", "max"):
        return "%s(%s, %s)" % (op, x, y)
    sym = op.strip("()")
    if sym in ("min", "max"):
        return "%s(%s, %s)" % (sym, x, y)
    return "%s %s %s" % (x, sym, y)


def render(gen, exports, seed, blocks=None):
    """The module text: helper defs, then each export with its test block
    (blocks: name -> block text; default: in: lines and `out: ?`, which
    difftest.py replaces with the interpreter's results). Returns the text
    and the lines (1-based, inclusive) of each export with its block."""
    text = "// arrsmith seed %d (test/diff/arrsmith.py)\n" % seed
    text += "".join(gen.defs) + "\n"
    spans = {}
    for name, sig, cases, rt in exports:
        if blocks is None:
            block = "// == test\n" + "".join("// in: %s\n// out: ?\n" % c for c in cases)
        else:
            block = blocks.get(name, "")
        first = text.count("\n") + 1
        text += block + sig + "\n"
        spans[name] = (first, text.count("\n"))
    return text, spans


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("--exports", type=int, default=6)
    ap.add_argument("--inputs", type=int, default=3)
    args = ap.parse_args()
    gen = Gen(args.seed)
    exports = gen.module(args.exports, args.inputs)
    sys.stdout.write(render(gen, exports, args.seed)[0])


if __name__ == "__main__":
    main()
