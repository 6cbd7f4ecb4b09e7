// Helpers shared by the fusion rules (FuseSupport.h).
#include "FuseSupport.h"

#include <functional>

namespace arrc::passes {
using namespace ir;

void countExp(const ExpP &e, std::map<int, int> &c) {
  if (!e) return;
  if (e->kind == Exp::Var) c[e->var]++;
  for (auto &a : e->args) countExp(a, c);
}
void countStmt(const Stmt &s, std::map<int, int> &c) {
  forEachExp(const_cast<Stmt &>(s), [&](ExpP &e) { countExp(e, c); });
  if (s.kind == StmtKind::Write) c[static_cast<const Write &>(s).array]++;
  forEachBlock(s, [&](const Block &b) { countBlock(b, c); });
}
bool usesAny(const Stmt &s, const std::vector<int> &vars) {
  std::map<int, int> c;
  countStmt(s, c);
  for (int v : vars)
    if (c.count(v)) return true;
  return false;
}
void countBlock(const Block &b, std::map<int, int> &c) {
  for (auto &s : b.stmts) countStmt(*s, c);
  for (auto &r : b.results) countExp(r, c);
}

bool spaceOf(Stmt &s, Space &sp) {
  switch (s.kind) {
  case StmtKind::Map: { auto &x = static_cast<Map &>(s); sp = {x.dims, x.index, &x.body}; return true; }
  case StmtKind::Reduce: { auto &x = static_cast<Reduce &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::Scan: { auto &x = static_cast<Scan &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::Filter: { auto &x = static_cast<Filter &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::Scatter: { auto &x = static_cast<Scatter &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::Hist: { auto &x = static_cast<Hist &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::SegScan: { auto &x = static_cast<SegScan &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  case StmtKind::SegReduce: { auto &x = static_cast<SegReduce &>(s); sp = {{x.n}, {x.index}, &x.body}; return true; }
  default: return false;
  }
}

bool sameDims(const std::vector<ExpP> &a, const std::vector<ExpP> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!sameExp(a[i], b[i])) return false;
  return true;
}

void readsAtIndex(const Block &b, int arr, const std::vector<int> &idx, int &good) {
  std::function<void(const ExpP &)> ex = [&](const ExpP &e) {
    if (!e) return;
    if (e->kind == Exp::Read && e->args[0]->kind == Exp::Var && e->args[0]->var == arr &&
        e->args.size() == idx.size() + 1) {
      bool ok = true;
      for (size_t k = 0; k < idx.size(); ++k)
        ok = ok && e->args[k + 1]->kind == Exp::Var && e->args[k + 1]->var == idx[k];
      if (ok) {
        good++;
        return;
      }
    }
    for (auto &a : e->args) ex(a);
  };
  std::function<void(const Block &)> bl = [&](const Block &blk) {
    for (auto &s : blk.stmts) {
      forEachExp(const_cast<Stmt &>(*s), [&](ExpP &e) { ex(e); });
      forEachBlock(static_cast<const Stmt &>(*s), bl);
    }
    for (auto &r : blk.results) ex(r);
  };
  bl(b);
}

void replaceReads(Block &b, const std::map<int, ExpP> &repl) {
  rewriteBlock(b, [&](const ExpP &e) -> ExpP {
    if (e->kind == Exp::Read && e->args[0]->kind == Exp::Var) {
      auto it = repl.find(e->args[0]->var);
      if (it != repl.end()) return it->second;
    }
    return nullptr;
  });
}

static bool isShapeOf(const ExpP &e, int out) {
  return e->kind == Exp::Shape && e->axis == 0 && e->args[0]->kind == Exp::Var && e->args[0]->var == out;
}

bool isLengthOf(const ExpP &n, int out, const Block &b, std::map<int, int> &uses, int &letUses) {
  letUses = 0;
  if (isShapeOf(n, out)) return true;
  if (n->kind != Exp::Var || uses[n->var] != 1) return false;
  for (auto &st : b.stmts)
    if (st->kind == StmtKind::Let && st->outs[0] == n->var && isShapeOf(static_cast<const Let &>(*st).value, out)) {
      letUses = 1;
      return true;
    }
  return false;
}

int firstConsumer(const Block &b, size_t pi, const std::vector<int> &outs) {
  for (size_t j = pi + 1; j < b.stmts.size(); ++j) {
    if (b.stmts[j]->kind == StmtKind::Let && !outs.empty() &&
        isShapeOf(static_cast<const Let &>(*b.stmts[j]).value, outs[0]))
      continue;
    std::map<int, int> c;
    countStmt(*b.stmts[j], c);
    for (int o : outs)
      if (c.count(o)) return int(j);
  }
  return -1;
}

// ---------------------------------------------------------------- DimFacts
DimFacts::DimFacts(const Block &b, size_t upto) {
  for (size_t j = 0; j < upto && j < b.stmts.size(); ++j) {
    const Stmt &s = *b.stmts[j];
    switch (s.kind) {
    case StmtKind::Let: {
      auto &v = static_cast<const Let &>(s).value;
      if (v->type.rank == 0) lets_[s.outs[0]] = v;
      break;
    }
    case StmtKind::Map:
      for (int o : s.outs) shapes_[o] = static_cast<const Map &>(s).dims;
      break;
    case StmtKind::View: shapes_[s.outs[0]] = static_cast<const View &>(s).shape; break;
    case StmtKind::Check: {
      auto &c = static_cast<const Check &>(s);
      if (c.code == Check::Shape || c.code == Check::ZipSize) assume(c.cond);
      break;
    }
    default: break;
    }
  }
}

ExpP DimFacts::canon(const ExpP &e, int depth) {
  if (depth > 32) return e;
  return rewriteExp(e, [&](const ExpP &x) -> ExpP {
    if (x->kind == Exp::Var) {
      auto it = lets_.find(x->var);
      if (it != lets_.end()) return canon(it->second, depth + 1);
    }
    if (x->kind == Exp::Shape && x->args[0]->kind == Exp::Var) {
      auto it = shapes_.find(x->args[0]->var);
      if (it != shapes_.end() && x->axis < int(it->second.size())) return canon(it->second[x->axis], depth + 1);
    }
    return nullptr;
  });
}

std::string DimFacts::find(const std::string &k) {
  auto it = parent_.find(k);
  if (it == parent_.end() || it->second == k) return k;
  std::string r = find(it->second);
  parent_[k] = r;
  return r;
}

void DimFacts::assume(const ExpP &cond) {
  if (cond->kind != Exp::Binary) return;
  if (cond->binop == BinOp::And) {
    assume(cond->args[0]);
    assume(cond->args[1]);
    return;
  }
  if (cond->binop != BinOp::Eq) return;
  std::string a = find(expKey(canon(cond->args[0]))), b = find(expKey(canon(cond->args[1])));
  if (a != b) parent_[a] = b;
}

std::shared_ptr<ir::Loop> foldLoop(ir::Module &m, const ExpP &count, int index, const Block &elem,
                                   const ir::Lambda &op, const std::vector<ExpP> &ne) {
  auto loop = std::make_shared<ir::Loop>();
  loop->form = ir::Loop::For;
  loop->count = count;
  loop->index = index;
  loop->init = ne;
  size_t K = ne.size();
  std::map<int, ExpP> s;
  for (size_t k = 0; k < K; ++k) {
    int acc = m.newVar("acc", ne[k]->type);
    loop->params.push_back(acc);
    s[op.params[k]] = varExp(m, acc);
    s[op.params[K + k]] = elem.results[k];
    loop->outs.push_back(m.newVar("part", ne[k]->type));
  }
  Block opb = cloneFresh(m, op.body, s);
  loop->body.stmts = elem.stmts;
  loop->body.stmts.insert(loop->body.stmts.end(), opb.stmts.begin(), opb.stmts.end());
  loop->body.results = opb.results;
  return loop;
}

bool DimFacts::equal(const ExpP &a, const ExpP &b) {
  if (sameExp(a, b)) return true;
  ExpP ca = canon(a), cb = canon(b);
  if (sameExp(ca, cb)) return true;
  return find(expKey(ca)) == find(expKey(cb));
}

bool DimFacts::equalDims(const std::vector<ExpP> &a, const std::vector<ExpP> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!equal(a[i], b[i])) return false;
  return true;
}

} // namespace arrc::passes
