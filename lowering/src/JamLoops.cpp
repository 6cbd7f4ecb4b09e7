// Unroll-and-jam in device code: a `for` loop over c whose body is a few
// Lets, one inner `for` loop over k, then Lets that fold the inner loop's
// result into the outer state -- k-means' argmin over the centres of the
// distance to each, `loop (best) for c < K { d = loop (acc) for k < n {
// acc + (P[i, k] - C[c, k])^2 }; best = select(d < best, ...) }` -- runs two
// values of c per step, their inner loops as one: each P[i, k] is loaded
// once for both, and the two independent accumulations interleave.
//
//   S' = loop (S = init) for c2 < K / 2 {
//     A: the body at c = 2 c2 (state S), its inner loop merged with
//     B: the body at c = 2 c2 + 1 (state A's results)
//   }
//   S_out = if (K % 2 == 1) then { the body at c = K - 1 (state S') } else { S' }
//
// Every value is computed by the same operations in the same order as
// before (each copy's accumulation on its own), so results are identical.
// Conditions: no bounds-checked read and no effect in the outer body (the
// order in which errors would be raised must not change); only the Lets
// after the inner loop use the outer state; the inner loop's count is the
// same for every c; and the inner loop reads something that does not depend
// on c (else nothing is shared and the copies only cost registers).
// ARRC_JAM_LOOPS=0 turns the pass off (to compare).
#include "FuseSupport.h" // isDevicePlans

#include <cstdlib>
#include <cstring>

namespace arrc::passes {
using namespace ir;

namespace {

struct Shape {
  size_t inner = 0; // index of the inner loop in the outer body
};

bool onlyLets(const std::vector<StmtP> &v, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i)
    if (v[i]->kind != StmtKind::Let || v[i]->outs.size() != 1 || v[i]->outs[0] < 0) return false;
  return true;
}

struct Jammer {
  ir::Module &m;
  int jammed = 0;

  ir::Type typeOf(int v) const { return m.vars[v].type; }

  // The loop's shape, or false when it is not one to jam.
  bool match(const ir::Loop &x, Shape &sh) {
    if (x.form != ir::Loop::For || x.params.empty()) return false;
    for (int p : x.params)
      if (typeOf(p).rank != 0) return false;
    if (typeOf(x.index).elem != ScalarKind::Long && typeOf(x.index).elem != ScalarKind::Int) return false;
    const auto &st = x.body.stmts;
    size_t inner = st.size();
    for (size_t i = 0; i < st.size(); ++i)
      if (st[i]->kind == StmtKind::Loop) {
        if (inner != st.size()) return false; // one inner loop
        inner = i;
      }
    if (inner == st.size() || !onlyLets(st, 0, inner) || !onlyLets(st, inner + 1, st.size())) return false;
    auto &in = static_cast<const ir::Loop &>(*st[inner]);
    if (in.form != ir::Loop::For || in.params.empty() || !onlyLets(in.body.stmts, 0, in.body.stmts.size()))
      return false;
    for (int p : in.params)
      if (typeOf(p).rank != 0) return false;
    // nothing that can raise or write, anywhere in the body
    if (blockMayRaise(x.body) || blockWrites(x.body)) return false;
    for (auto &s : st)
      if (hasEffect(*s)) return false;
    // the outer state only after the inner loop
    std::set<int> state(x.params.begin(), x.params.end()), used;
    for (size_t i = 0; i <= inner; ++i) stmtUses(*st[i], used);
    for (int v : state)
      if (used.count(v)) return false;
    // what varies with c (the Lets before the inner loop that use it)
    std::set<int> dep{x.index};
    for (size_t i = 0; i < inner; ++i) {
      std::set<int> u;
      stmtUses(*st[i], u);
      for (int v : u)
        if (dep.count(v)) dep.insert(st[i]->outs[0]);
    }
    // the inner count: the same for every c
    std::set<int> cv;
    expVars(in.count, cv);
    for (int v : cv)
      if (dep.count(v) || state.count(v)) return false;
    // something read in the inner loop that does not vary with c
    bool shared = false;
    std::set<int> innerDep = dep;
    innerDep.insert(in.params.begin(), in.params.end());
    for (auto &s : in.body.stmts) {
      auto &l = static_cast<const Let &>(*s);
      std::set<int> u;
      expVars(l.value, u);
      bool d = false;
      for (int v : u) d = d || innerDep.count(v);
      if (d) innerDep.insert(s->outs[0]);
      if (l.value->kind == Exp::Read) {
        bool invariant = true;
        for (size_t a = 1; a < l.value->args.size(); ++a) {
          std::set<int> iv;
          expVars(l.value->args[a], iv);
          for (int v : iv) invariant = invariant && !dep.count(v);
        }
        shared = shared || invariant;
      }
    }
    sh.inner = inner;
    return shared;
  }

  ExpP constOf(ScalarKind k, int64_t v) { return constInt(v, k); }

  // The outer body at index `c` with the state `state` (fresh variables).
  Block bodyAt(const ir::Loop &x, const ExpP &c, const std::vector<ExpP> &state) {
    std::map<int, ExpP> sub{{x.index, c}};
    for (size_t i = 0; i < x.params.size(); ++i) sub[x.params[i]] = state[i];
    return cloneFresh(m, x.body, sub);
  }

  // The replacement of loop x (statements ending in the definition of x.outs).
  std::vector<StmtP> jam(const ir::Loop &x, const Shape &sh) {
    ScalarKind ik = typeOf(x.index).elem;
    auto outer = std::make_shared<ir::Loop>();
    outer->form = ir::Loop::For;
    outer->index = m.newVar("c2", scalarT(ik));
    outer->count = binaryExp(BinOp::Div, x.count, constOf(ik, 2));
    outer->init = x.init;
    std::vector<ExpP> st;
    for (int p : x.params) {
      outer->params.push_back(m.newVar(m.vars[p].name, typeOf(p)));
      st.push_back(varExp(m, outer->params.back()));
    }
    ExpP c2 = varExp(m, outer->index);
    ExpP ca = binaryExp(BinOp::Mul, c2, constOf(ik, 2));
    ExpP cb = binaryExp(BinOp::Add, ca, constOf(ik, 1));
    Block a = bodyAt(x, ca, st);
    // a's results bound to Lets, not substituted into b as expressions: a
    // state read several times would make the expressions a DAG whose tree
    // doubles with each round (three rounds took minutes in CSE)
    std::vector<StmtP> aState;
    std::vector<ExpP> aRes;
    for (size_t i = 0; i < x.params.size(); ++i) {
      const ExpP &r = a.results[i];
      if (r->kind == Exp::Var || r->kind == Exp::Const) {
        aRes.push_back(r);
        continue;
      }
      auto l = std::make_shared<Let>();
      l->outs = {m.newVar(m.vars[x.params[i]].name, typeOf(x.params[i]))};
      l->value = r;
      aState.push_back(l);
      aRes.push_back(varExp(m, l->outs[0]));
    }
    Block b = bodyAt(x, cb, aRes);
    auto &la = static_cast<ir::Loop &>(*a.stmts[sh.inner]);
    auto &lb = static_cast<ir::Loop &>(*b.stmts[sh.inner]);
    // one inner loop for both: b's body on a's index
    auto merged = mergeLoops(m, la, lb);
    std::vector<StmtP> &ob = outer->body.stmts;
    ob.insert(ob.end(), a.stmts.begin(), a.stmts.begin() + sh.inner);
    ob.insert(ob.end(), b.stmts.begin(), b.stmts.begin() + sh.inner);
    ob.push_back(merged);
    ob.insert(ob.end(), a.stmts.begin() + sh.inner + 1, a.stmts.end());
    ob.insert(ob.end(), aState.begin(), aState.end());
    ob.insert(ob.end(), b.stmts.begin() + sh.inner + 1, b.stmts.end());
    outer->body.results = b.results;
    std::vector<ExpP> mid;
    for (int o : x.outs) {
      outer->outs.push_back(m.newVar(m.vars[o].name, typeOf(o)));
      mid.push_back(varExp(m, outer->outs.back()));
    }
    // an odd count: the last c on its own
    auto rest = std::make_shared<ir::If>();
    rest->cond = binaryExp(BinOp::Eq, binaryExp(BinOp::Mod, x.count, constOf(ik, 2)), constOf(ik, 1));
    rest->thenB = bodyAt(x, binaryExp(BinOp::Sub, x.count, constOf(ik, 1)), mid);
    rest->elseB.results = mid;
    rest->outs = x.outs;
    rest->note = x.note;
    return {outer, rest};
  }

  void block(Block &b) {
    std::vector<StmtP> out;
    for (auto &s : b.stmts) {
      forEachBlock(*s, [&](Block &in) { block(in); });
      Shape sh;
      if (s->kind == StmtKind::Loop && match(static_cast<ir::Loop &>(*s), sh)) {
        auto r = jam(static_cast<ir::Loop &>(*s), sh);
        out.insert(out.end(), r.begin(), r.end());
        jammed++;
        continue;
      }
      out.push_back(s);
    }
    b.stmts = std::move(out);
  }

};

} // namespace

// The GPU plan of FuseMultiHist's plans by device (the else-branch of their
// If), wherever they are in the host code.
static void forEachGpuPlan(Block &host, const std::function<void(Block &)> &f) {
  for (auto &s : host.stmts) {
    if (isDevicePlans(*s)) f(static_cast<ir::If &>(*s).elseB);
    else if (s->kind == StmtKind::If || s->kind == StmtKind::Loop)
      forEachBlock(*s, [&](Block &in) { forEachGpuPlan(in, f); });
  }
}

// The device blocks of a host block, except those of the CPU plan of
// FuseMultiHist's plans by device (the then-branch of their If).
static void forEachBlockButCpuPlans(Block &host, const std::function<void(Block &)> &f) {
  for (auto &s : host.stmts) {
    if (isDevicePlans(*s)) {
      forEachBlockButCpuPlans(static_cast<ir::If &>(*s).elseB, f);
    } else if (s->kind == StmtKind::If || s->kind == StmtKind::Loop) {
      forEachBlock(*s, [&](Block &in) { forEachBlockButCpuPlans(in, f); });
    } else {
      Block one;
      one.stmts.push_back(s);
      forEachDeviceBlock(one, f);
    }
  }
}

void jamLoops(ir::Module &m) {
  // rounds: each doubles the steps per iteration (ARRC_JAM_LOOPS=n, 0: off,
  // n rounds everywhere). By default one round, none in a CPU plan and one
  // more in a GPU plan: on the H100 k-means' step went 0.335 -> 0.292 ms
  // with one round and 0.270 with two, but on PoCL two rounds took 8.8-10.8
  // ms against 7.2 (four sums' partial sums no longer fit the vector
  // registers), and in the CPU plan (one pass) one round took 5.5 ms per
  // step on one thread against 4.2 without (M = 10^5).
  const char *env = std::getenv("ARRC_JAM_LOOPS");
  int rounds = env && *env ? std::atoi(env) : 1;
  for (int r = 0; r < rounds; ++r) {
    Jammer j{m};
    for (auto &f : m.functions) {
      if (env && *env) forEachDeviceBlock(f.body, [&](Block &b) { j.block(b); });
      else forEachBlockButCpuPlans(f.body, [&](Block &b) { j.block(b); });
    }
    if (!j.jammed) break;
  }
  if (env && *env) return;
  Jammer gpu{m};
  for (auto &f : m.functions)
    forEachGpuPlan(f.body, [&](Block &plan) { forEachDeviceBlock(plan, [&](Block &b) { gpu.block(b); }); });
}

} // namespace arrc::passes
