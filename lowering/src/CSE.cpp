// Common subexpressions in device code (SOAC bodies, operators, and the If
// branches and Loop bodies inside them): a pure subexpression that occurs
// twice or more in a block is computed once, bound by a Let placed before the
// statement of its first occurrence, and that variable replaces every later
// occurrence in the block and in the blocks nested in it (e.g. the repeated
// select conditions of argmin's fold). simplify already merges whole Lets;
// this pass finds the repeated parts of expressions.
//
// Only expressions evaluated unconditionally where they occur are bound (the
// block's own statements' expressions and results; a Select evaluates both
// sides anyway), so no work is added on any path. Excluded: bounds-checked
// reads and anything containing one (binding one earlier could change which
// error a statement reports first), reads of arrays that bodies Write, and
// trivial expressions (variables, constants, conversions, shapes).
#include "Passes.h"

#include <functional>
#include <map>

namespace arrc::passes {
using namespace ir;

namespace {

struct Cse {
  ir::Module &m;
  std::set<int> written; // arrays some Write stores into

  // Whether e is worth a variable and safe to evaluate once, earlier in its statement.
  bool candidate(const ExpP &e) {
    if (e->type.rank != 0) return false;
    switch (e->kind) {
    case Exp::Unary:
      if (isConst(e->args[0])) return false;
      break;
    case Exp::Binary: case Exp::Select: case Exp::Call: break;
    case Exp::Read:
      if (e->checkPos >= 0 || e->args[0]->kind != Exp::Var || written.count(e->args[0]->var)) return false;
      break;
    default: return false;
    }
    return safe(e);
  }
  bool safe(const ExpP &e) {
    if (e->kind == Exp::Read && e->checkPos >= 0) return false;
    for (auto &a : e->args)
      if (!safe(a)) return false;
    return true;
  }

  using Counts = std::map<std::string, int>;
  using Avail = std::map<std::string, ExpP>;

  void countTree(const ExpP &e, Counts &c, int delta) {
    if (!e) return;
    if (candidate(e)) c[expKey(e)] += delta;
    for (auto &a : e->args) countTree(a, c, delta);
  }
  void countBlock(const Block &b, Counts &c) {
    for (auto &s : b.stmts) {
      forEachExp(const_cast<Stmt &>(*s), [&](ExpP &e) { countTree(e, c, 1); });
      forEachBlock(static_cast<const Stmt &>(*s), [&](const Block &in) { countBlock(in, c); });
    }
    for (auto &r : b.results) countTree(r, c, 1);
  }

  // Rewrites e top-down: available expressions become their variable; a
  // repeated one is bound by a new Let appended to `out`.
  ExpP rewrite(const ExpP &e, Counts &c, Avail &avail, std::vector<StmtP> &out) {
    if (!e || e->args.empty()) return e;
    if (candidate(e)) {
      std::string key = expKey(e);
      auto it = avail.find(key);
      if (it != avail.end()) return it->second;
      if (c[key] >= 2) {
        // The later occurrences will be this variable: their parts no longer count.
        for (auto &a : e->args) countTree(a, c, -(c[key] - 1));
        ExpP value = rebuild(e, c, avail, out);
        int v = m.newVar("cse", e->type);
        auto let = std::make_shared<Let>();
        let->outs = {v};
        let->value = value;
        out.push_back(let);
        ExpP ve = varExp(v, e->type);
        avail[key] = ve;
        return ve;
      }
    }
    return rebuild(e, c, avail, out);
  }
  ExpP rebuild(const ExpP &e, Counts &c, Avail &avail, std::vector<StmtP> &out) {
    std::vector<ExpP> args;
    bool changed = false;
    for (auto &a : e->args) {
      args.push_back(rewrite(a, c, avail, out));
      changed = changed || args.back() != a;
    }
    if (!changed) return e;
    auto n = std::make_shared<Exp>(*e);
    n->args = std::move(args);
    return n;
  }

  void block(Block &b, Avail avail) {
    Counts c;
    countBlock(b, c);
    std::vector<StmtP> out;
    for (auto &s : b.stmts) {
      if (s->kind == StmtKind::Let && s->note.empty() && candidate(static_cast<Let &>(*s).value)) {
        // The Let itself binds its value: later occurrences use its variable.
        auto &l = static_cast<Let &>(*s);
        std::string key = expKey(l.value);
        auto it = avail.find(key);
        if (it != avail.end()) {
          l.value = it->second;
        } else {
          for (auto &a : l.value->args) countTree(a, c, -(c[key] - 1));
          l.value = rebuild(l.value, c, avail, out);
          avail[key] = varExp(s->outs[0], l.value->type);
        }
      } else {
        forEachExp(*s, [&](ExpP &e) { e = rewrite(e, c, avail, out); });
      }
      // The nested blocks' occurrences are settled there (or replaced by
      // what is available here): they no longer count for what follows.
      Counts nested;
      forEachBlock(static_cast<const Stmt &>(*s), [&](const Block &in) { countBlock(in, nested); });
      for (auto &kv : nested) c[kv.first] -= kv.second;
      forEachBlock(*s, [&](Block &in) { block(in, avail); });
      out.push_back(s);
    }
    for (auto &r : b.results) r = rewrite(r, c, avail, out);
    b.stmts = std::move(out);
  }

};

void collectWrites(const Block &b, std::set<int> &w) {
  for (auto &s : b.stmts) {
    if (s->kind == StmtKind::Write) w.insert(static_cast<const Write &>(*s).array);
    forEachBlock(static_cast<const Stmt &>(*s), [&](const Block &in) { collectWrites(in, w); });
  }
}

} // namespace

void cse(ir::Module &m) {
  for (auto &f : m.functions) {
    Cse c{m, {}};
    collectWrites(f.body, c.written);
    // in every SOAC's blocks, each starting afresh
    forEachDeviceBlock(f.body, [&](Block &b) { c.block(b, {}); });
  }
}

} // namespace arrc::passes
