// Sums per group written as masked sums become histograms (docs/lowering.md,
// "Sums per group"). A user writes the sums of each group as a sum over all
// elements that keeps those of the group:
//
//   [[sum([if ids[i] == c then P[i, j] else 0.0 | i <- iota(m)]) | j <- ..] | c <- iota(k)]
//   [sum([v[i] | i <- iota(m), ids[i] == c]) | c <- iota(k)]
//   [count(\x -> x == c, ids) | c <- iota(k)]
//
// Each is a Map over the groups c (and other axes) whose element is, or
// uses, a loop over all m elements: k times the work of one pass (k-means'
// sums at 10^5 points, 10 centres, PoCL: 14 ms against 2.3 for `hist`). An
// element belongs to exactly one group, the one its key names, so the loop
// is one histogram for all groups:
//
//   h = hist (t < (k > 0 ? m * R : 0)) over bins k * R:
//         e = t / R, the other axes from t % R (R: their extents' product),
//         key = the key at e; in = 0 <= key < k
//         bin = in ? the Map's flat index with c = key : -1
//         value = in ? the value at e : 0   (a select where the source
//                                             evaluated it for every element)
//   out = view h with the Map's shape       (the Map's element was the sum)
//   or the Map, the loop replaced by a read of h at the Map's flat index
//
// The value and the statements computing it run only for elements whose key
// is a group, as in the source, where they ran only under `key == c`; the
// key runs for every element once there is a group (k > 0), as there. A
// loop in a branch of an if of the element may not run for every group, so
// there its body must not raise or loop. A group index compared as an int
// equals the key for c < 2^31 only, so where the groups' extent is not
// known to be an int the histogram is taken for k <= 2^31 - 1 and the Map
// stays otherwise. Integer sums are exact in any order; float sums only
// where the loop is a reduce's (Loop::reassoc), as for SplitLongLoops. The
// pass runs after VersionChecks, whose unchecked copies qualify in branches.
#include "Passes.h"

namespace arrc::passes {
using namespace ir;

namespace {

bool isZero(const ExpP &e) {
  if (!e || e->kind != Exp::Const || e->type.rank != 0) return false;
  return isFloatKind(e->type.elem) ? e->fval == 0.0 : e->ival == 0;
}

bool usesAny(const std::set<int> &used, const std::set<int> &vars) {
  for (int v : vars)
    if (used.count(v)) return true;
  return false;
}

// a + b where one side is `acc`: the other side, else null.
ExpP addend(const ExpP &e, int acc) {
  if (!e || e->kind != Exp::Binary || e->binop != BinOp::Add) return nullptr;
  if (isVar(e->args[0], acc)) return e->args[1];
  if (isVar(e->args[1], acc)) return e->args[0];
  return nullptr;
}

// An extent that cannot pass 2^31 - 1: an int, widened, or its max with 0,
// also through the host Lets that define it (lets).
bool intBounded(const ExpP &e, const std::map<int, ExpP> &lets, int depth = 0) {
  if (!e || e->type.rank != 0 || depth > 8) return false;
  if (e->type.elem == ScalarKind::Int) return true;
  if (e->kind == Exp::Var) {
    auto it = lets.find(e->var);
    return it != lets.end() && intBounded(it->second, lets, depth + 1);
  }
  if (e->kind == Exp::Convert) return intBounded(e->args[0], lets, depth + 1);
  if (e->kind == Exp::Call && e->fn == "max" && e->args.size() == 2) {
    int64_t z;
    return intBounded(e->args[0], lets, depth + 1) && constValue(e->args[1], z) && z <= 0;
  }
  return false;
}

// What a matched Map sums: for each element e of the loop, `value` (after
// `thenStmts`) where `cond` holds, cond being key == (the group index).
struct Match {
  Block *home = nullptr;         // the block holding the loop (the Map's body or a branch)
  size_t at = 0;                 // the loop's place in it
  bool conditional = false;      // in a branch of an if of the Map's body
  bool identity = false;         // the Map's element is the sum itself
  int axis = -1;                 // the Map's group axis
  std::set<int> group;           // its index and the Lets aliasing it
  bool groupInt = false;         // compared as an int
  std::vector<StmtP> aliases;    // Lets aliasing the Map's other indices
  std::vector<StmtP> pre;        // the loop body's statements before the sum
  ExpP key;                      // the other side of the comparison
  std::vector<StmtP> thenStmts;  // run only where the key matches
  ExpP value;
  bool guarded = true;           // false: the source evaluated value for every element
};

class GroupSums {
public:
  explicit GroupSums(ir::Module &m) : m_(m) {}
  std::map<int, ExpP> lets;  // the function's Lets (intBounded)

  bool hostBlock(Block &b) {
    bool changed = false;
    std::vector<StmtP> out;
    for (auto &sp : b.stmts) {
      if (sp->kind == StmtKind::If || sp->kind == StmtKind::Loop)
        forEachBlock(*sp, [&](Block &in) { changed = hostBlock(in) || changed; });
      Match mt;
      if (sp->kind == StmtKind::Map && match(static_cast<Map &>(*sp), mt)) {
        rewrite(std::static_pointer_cast<Map>(sp), mt, out);
        changed = true;
        continue;
      }
      out.push_back(sp);
    }
    b.stmts = std::move(out);
    return changed;
  }

private:
  ir::Module &m_;

  // The comparison key == group (either side), the key using no group var.
  bool splitCond(const ExpP &c, Match &mt, const std::set<int> &banned) {
    if (!c || c->kind != Exp::Binary || c->binop != BinOp::Eq) return false;
    for (int side = 0; side < 2; ++side) {
      const ExpP &g = c->args[side], &k = c->args[1 - side];
      if (!g || g->kind != Exp::Var || !mt.group.count(g->var)) continue;
      const ScalarKind gk = g->type.elem, kk = k->type.elem;
      if (g->type.rank != 0 || k->type.rank != 0) return false;
      if ((gk != ScalarKind::Int && gk != ScalarKind::Long) || (kk != ScalarKind::Int && kk != ScalarKind::Long))
        return false;
      std::set<int> used;
      expVars(k, used);
      if (usesAny(used, banned)) return false;
      mt.key = k;
      mt.groupInt = gk == ScalarKind::Int;
      return true;
    }
    return false;
  }

  // The loop's step is acc + (cond ? value : 0), in one of three forms.
  static bool sumStep(const ir::Loop &loop, Match &mt, ExpP &cond) {
    const int acc = loop.params[0];
    const Block &lb = loop.body;
    const ExpP &res = lb.results[0];
    if (ExpP x = addend(res, acc)) {
      if (x->kind == Exp::Select && isZero(x->args[2])) {  // acc + select(cond, v, 0)
        cond = x->args[0], mt.value = x->args[1], mt.guarded = false;
        mt.pre.assign(lb.stmts.begin(), lb.stmts.end());
        return true;
      }
      if (lb.stmts.empty()) return false;
      const StmtP &last = lb.stmts.back();
      if (x->kind != Exp::Var || last->outs.size() != 1 || last->outs[0] != x->var) return false;
      if (last->kind == StmtKind::Let) {  // r = select(cond, v, 0); acc + r
        const ExpP &v = static_cast<const ir::Let &>(*last).value;
        if (v->kind != Exp::Select || !isZero(v->args[2])) return false;
        cond = v->args[0], mt.value = v->args[1], mt.guarded = false;
      } else if (last->kind == StmtKind::If) {  // r = if cond then v else 0; acc + r
        const auto &f = static_cast<const ir::If &>(*last);
        if (!f.elseB.stmts.empty() || f.elseB.results.size() != 1 || !isZero(f.elseB.results[0]) ||
            f.thenB.results.size() != 1)
          return false;
        cond = f.cond, mt.value = f.thenB.results[0], mt.thenStmts = f.thenB.stmts;
      } else {
        return false;
      }
      mt.pre.assign(lb.stmts.begin(), lb.stmts.end() - 1);
      return true;
    }
    // r = if cond then acc + v else acc
    if (lb.stmts.empty()) return false;
    const StmtP &last = lb.stmts.back();
    if (last->kind != StmtKind::If || last->outs.size() != 1 || !isVar(res, last->outs[0])) return false;
    const auto &f = static_cast<const ir::If &>(*last);
    if (!f.elseB.stmts.empty() || f.elseB.results.size() != 1 || !isVar(f.elseB.results[0], acc) ||
        f.thenB.results.size() != 1)
      return false;
    mt.value = addend(f.thenB.results[0], acc);
    if (!mt.value) return false;
    cond = f.cond, mt.thenStmts = f.thenB.stmts;
    mt.pre.assign(lb.stmts.begin(), lb.stmts.end() - 1);
    return true;
  }

  // Is home[at] a sum over all elements of the values whose key names the
  // Map's group? mapDefs: every variable the Map's body defines.
  bool matchLoop(const Map &map, const std::map<int, int> &axisOf, const std::set<int> &mapDefs, Match &mt) {
    const auto &loop = static_cast<const ir::Loop &>(*mt.home->stmts[mt.at]);
    if (loop.form != ir::Loop::For || loop.params.size() != 1 || loop.outs.size() != 1 ||
        !isZero(loop.init[0]) || loop.body.results.size() != 1)
      return false;
    const ir::Type t = m_.vars[loop.params[0]].type;
    const bool integer = t.elem == ScalarKind::Int || t.elem == ScalarKind::Long;
    if (t.rank != 0 || !(integer || (isFloatKind(t.elem) && loop.reassoc))) return false;
    // the count is known on the host
    std::set<int> countUses;
    expVars(loop.count, countUses);
    if (usesAny(countUses, mapDefs)) return false;
    ExpP cond;
    if (!sumStep(loop, mt, cond)) return false;
    // which axis the condition compares with
    const int acc = loop.params[0];
    for (size_t a = 0; a < map.dims.size() && mt.axis < 0; ++a) {
      Match probe = mt;
      for (auto &[v, ax] : axisOf)
        if (ax == static_cast<int>(a)) probe.group.insert(v);
      std::set<int> banned = probe.group;
      banned.insert(acc);
      if (splitCond(cond, probe, banned)) mt = probe, mt.axis = static_cast<int>(a);
    }
    if (mt.axis < 0) return false;
    // the parts the histogram evaluates use, of the Map's variables, only the
    // other axes' indices and aliases and their own
    Block parts;
    parts.stmts = mt.pre;
    auto f = std::make_shared<ir::If>();
    f->cond = constBool(true);
    f->thenB.stmts = mt.thenStmts;
    f->thenB.results = {mt.value};
    parts.stmts.push_back(f);
    parts.results = {mt.key};
    std::set<int> used, own;
    blockUses(parts, used);
    blockDefs(loop.body, own);
    own.insert(loop.index);
    for (int v : used) {
      if (v == acc || mt.group.count(v)) return false;
      if (mapDefs.count(v) && !own.count(v) && !(axisOf.count(v) && axisOf.at(v) != mt.axis)) return false;
    }
    if (blockWrites(parts)) return false;
    // under a condition of the Map's body the histogram evaluates them for
    // elements the source may not reach: only where nothing can raise or loop
    if (mt.conditional && (blockMayRaise(parts) || blockHasKind(parts, StmtKind::Loop))) return false;
    return true;
  }

  bool match(Map &map, Match &mt) {
    const size_t rank = map.dims.size();
    if (rank < 1 || rank > 3 || map.outs.empty() || map.outs.size() != map.body.results.size()) return false;
    // Lets of the Map's body aliasing its indices
    std::map<int, int> axisOf;
    for (size_t a = 0; a < rank; ++a) axisOf[map.index[a]] = static_cast<int>(a);
    std::vector<std::pair<StmtP, int>> aliases;
    for (auto &st : map.body.stmts) {
      if (st->kind != StmtKind::Let) continue;
      ExpP v = static_cast<const ir::Let &>(*st).value;
      if (v->kind == Exp::Convert) v = v->args[0];
      if (v->kind != Exp::Var || !axisOf.count(v->var)) continue;
      axisOf[st->outs[0]] = axisOf[v->var];
      aliases.push_back({st, axisOf[v->var]});
    }
    std::set<int> mapDefs;
    blockDefs(map.body, mapDefs);
    for (int i : map.index) mapDefs.insert(i);
    // the loop: a statement of the body or of a branch of one of its ifs
    std::vector<std::pair<Block *, bool>> homes{{&map.body, false}};
    for (auto &st : map.body.stmts)
      if (st->kind == StmtKind::If) {
        auto &f = static_cast<ir::If &>(*st);
        homes.push_back({&f.thenB, true});
        homes.push_back({&f.elseB, true});
      }
    for (auto &[home, conditional] : homes)
      for (size_t at = 0; at < home->stmts.size(); ++at) {
        if (home->stmts[at]->kind != StmtKind::Loop) continue;
        Match probe;
        probe.home = home, probe.at = at, probe.conditional = conditional;
        if (!matchLoop(map, axisOf, mapDefs, probe)) continue;
        mt = probe;
        for (auto &[st, a] : aliases)
          if (a != mt.axis) mt.aliases.push_back(st);
        // the Map's element is the sum, the rest of its body only aliases
        const int sum = home->stmts[at]->outs[0];
        mt.identity = !conditional && map.outs.size() == 1 && isVar(map.body.results[0], sum);
        for (auto &st : map.body.stmts)
          if (st != home->stmts[at] && !(st->kind == StmtKind::Let && axisOf.count(st->outs[0])))
            mt.identity = false;
        return true;
      }
    return false;
  }

  void rewrite(const std::shared_ptr<Map> &map, const Match &mt, std::vector<StmtP> &out) {
    const ir::Loop &loop = static_cast<const ir::Loop &>(*mt.home->stmts[mt.at]);
    const Span &sp = map->span;
    const ir::Type L = scalarT(ScalarKind::Long);
    const ir::Type et = m_.vars[loop.params[0]].type;
    const size_t rank = map->dims.size();
    const int p = mt.axis;
    const std::vector<int> results = map->outs;
    // int group indices: the histogram only where every group index is an int
    const bool guard = mt.groupInt && !intBounded(map->dims[p], lets);
    std::shared_ptr<Map> fallback;
    if (guard) {
      Block keep;
      keep.stmts = {map};
      std::map<int, ExpP> none;
      fallback = std::static_pointer_cast<Map>(cloneFresh(m_, keep, none).stmts[0]);
    }
    std::vector<StmtP> host;
    auto let = [&](const std::string &name, ExpP v) {
      int var = m_.newVar(name, L);
      host.push_back(letStmt(var, std::move(v), sp));
      return varExp(var, L);
    };
    // extents, row-major strides, the other axes' product
    std::vector<ExpP> d(rank), stride(rank);
    for (size_t a = 0; a < rank; ++a) d[a] = let("n", maxL(toLong(map->dims[a]), constLong(0)));
    ExpP s = constLong(1), rest = constLong(1);
    for (size_t a = rank; a-- > 0;) {
      stride[a] = s;
      if (a > 0) s = let("stride", mulL(s, d[a]));
      if (static_cast<int>(a) != p) rest = mulL(rest, d[a]);
    }
    ExpP R = let("rest", rest);
    ExpP bins = let("bins", mulL(d[p], R));
    ExpP total = let("total", selectExp(binaryExp(BinOp::Gt, d[p], constLong(0)),
                                         mulL(maxL(toLong(loop.count), constLong(0)), R), constLong(0)));
    // the histogram's body: element e and the other axes from t
    auto h = std::make_shared<Hist>();
    h->index = m_.newVar("t", L);
    ExpP tv = varExp(h->index, L);
    h->bins = bins;
    h->n = total;
    std::map<int, ExpP> sub;
    std::vector<StmtP> body;
    int ev = m_.newVar("e", L);
    body.push_back(letStmt(ev, rank == 1 ? tv : binaryExp(BinOp::Div, tv, R), sp));
    sub[loop.index] = convertExp(varExp(ev, L), m_.vars[loop.index].type.elem);
    // the other axes, innermost first, from t % R
    ExpP flat;  // the Map's flat index without the group axis' term
    ExpP remaining = rank == 1 ? constLong(0) : binaryExp(BinOp::Mod, tv, R);
    std::vector<int> others;
    for (size_t a = 0; a < rank; ++a)
      if (static_cast<int>(a) != p) others.push_back(static_cast<int>(a));
    for (size_t q = others.size(); q-- > 0;) {
      const int a = others[q];
      int iv = m_.newVar("i", L);
      body.push_back(letStmt(iv, q == 0 ? remaining : binaryExp(BinOp::Mod, remaining, d[a]), sp));
      sub[map->index[a]] = convertExp(varExp(iv, L), m_.vars[map->index[a]].type.elem);
      ExpP term = mulL(varExp(iv, L), stride[a]);
      flat = flat ? addL(flat, term) : term;
      if (q > 0) {
        int nv = m_.newVar("r", L);
        body.push_back(letStmt(nv, binaryExp(BinOp::Div, remaining, d[a]), sp));
        remaining = varExp(nv, L);
      }
    }
    // key, membership, bin and value, over the source's statements
    Block src;
    src.stmts = mt.aliases;
    src.stmts.insert(src.stmts.end(), mt.pre.begin(), mt.pre.end());
    int kv = m_.newVar("key", L), inv = m_.newVar("in", scalarT(ScalarKind::Bool));
    src.stmts.push_back(letStmt(kv, toLong(mt.key), sp));
    ExpP key = varExp(kv, L);
    src.stmts.push_back(letStmt(inv, binaryExp(BinOp::And, binaryExp(BinOp::Ge, key, constLong(0)),
                                             binaryExp(BinOp::Lt, key, d[p])), sp));
    ExpP in = varExp(inv, scalarT(ScalarKind::Bool));
    int vv = m_.newVar("v", et);
    if (mt.guarded) {
      auto f = std::make_shared<ir::If>();
      f->cond = in;
      f->thenB.stmts = mt.thenStmts;
      f->thenB.results = {mt.value};
      f->elseB.results = {constZero(et.elem)};
      f->outs = {vv};
      f->span = sp;
      src.stmts.push_back(f);
    } else {
      src.stmts.push_back(letStmt(vv, selectExp(in, mt.value, constZero(et.elem)), sp));
    }
    ExpP binv = mulL(key, stride[p]);
    if (flat) binv = addL(binv, flat);
    src.results = {selectExp(in, binv, constLong(-1)), varExp(vv, et)};
    Block cloned = cloneFresh(m_, src, sub);
    body.insert(body.end(), cloned.stmts.begin(), cloned.stmts.end());
    h->body.stmts = std::move(body);
    h->body.results = cloned.results;
    int x = m_.newVar("x", et), y = m_.newVar("y", et);
    h->op.params = {x, y};
    h->op.body.results = {binaryExp(BinOp::Add, varExp(x, et), varExp(y, et))};
    h->ne = {constZero(et.elem)};
    const int hv = m_.newVar("hist", arrayT(et.elem, 1));
    const ExpP hist = varExp(hv, arrayT(et.elem, 1));
    h->outs = {hv};
    h->note = map->note + "; sums per group: a histogram";
    h->span = sp;
    host.push_back(h);
    std::vector<int> made = results;  // what the histogram's side defines
    if (guard)
      for (int &v : made) v = m_.newVar("sums", m_.vars[v].type);
    if (mt.identity) {
      // the Map's result: the bins in its shape
      auto view = std::make_shared<View>();
      view->source = hist;
      view->shape = d;
      view->weights = stride;
      view->weights.push_back(constLong(0));
      view->outs = made;
      view->span = sp;
      host.push_back(view);
    } else {
      // the Map reads its sum from the bins
      ExpP at;
      for (size_t a = 0; a < rank; ++a) {
        ExpP term = mulL(toLong(varExp(m_, map->index[a])), stride[a]);
        at = at ? addL(at, term) : term;
      }
      mt.home->stmts[mt.at] = letStmt(loop.outs[0], readExp(hist, {at}), sp);
      map->outs = made;
      host.push_back(map);
    }
    if (!guard) {
      out.insert(out.end(), host.begin(), host.end());
      return;
    }
    auto pick = std::make_shared<ir::If>();
    pick->cond = binaryExp(BinOp::Le, toLong(map->dims[p]), constLong(2147483647));
    pick->thenB.stmts = std::move(host);
    pick->elseB.stmts = {fallback};
    for (size_t o = 0; o < results.size(); ++o) {
      pick->thenB.results.push_back(varExp(m_, made[o]));
      pick->elseB.results.push_back(varExp(m_, fallback->outs[o]));
    }
    pick->outs = results;
    pick->span = sp;
    out.push_back(pick);
  }
};

} // namespace

bool groupSums(ir::Module &m) {
  GroupSums g(m);
  bool changed = false;
  for (auto &f : m.functions) {
    g.lets.clear();
    collectLets(f.body, g.lets);
    changed = g.hostBlock(f.body) || changed;
  }
  return changed;
}

} // namespace arrc::passes
