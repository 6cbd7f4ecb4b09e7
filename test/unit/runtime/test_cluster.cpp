// libarrc_cluster (arrc/cluster.h) under mpirun with 1-4 ranks (ctest
// runtime.cluster_r*): partitions, index intervals, distributed arrays and
// their collectives (gather, windows, rows, reduce-scatter, the sample sort's
// exchange, host reads), and the error agreement of Cluster::run. Every rank
// runs every case; collectives are called in the same order whatever the
// checks find (CHECK, not REQUIRE), so a failure cannot hang the job.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <arrc/cluster.h>

#include <algorithm>
#include <numeric>

namespace {

arrc::Cluster *cluster = nullptr;

std::vector<int64_t> iotaVec(int64_t n, int64_t from = 0) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), from);
  return v;
}

} // namespace

TEST_CASE("partition: block, counts, follow") {
  auto p = arrc::Partition::block(10, 4);
  CHECK(p.bounds == std::vector<int64_t>{0, 3, 6, 8, 10});
  auto e = arrc::Partition::block(2, 4); // more ranks than rows: empty parts
  CHECK(e.bounds == std::vector<int64_t>{0, 1, 2, 2, 2});
  CHECK(arrc::Partition::of_counts({2, 0, 3}).bounds == std::vector<int64_t>{0, 2, 2, 5});
  // an index space of rows * 3 (a flattened matrix) follows the rows
  CHECK(arrc::dist::follow(p, 3, 30).bounds == std::vector<int64_t>{0, 9, 18, 24, 30});
  // a longer index space: the last rank takes the rest (reads there fail bounds checks)
  CHECK(arrc::dist::follow(p, 1, 12).bounds == std::vector<int64_t>{0, 3, 6, 8, 12});
  // a shorter one: clipped
  CHECK(arrc::dist::follow(p, 1, 5).bounds == std::vector<int64_t>{0, 3, 5, 5, 5});
  CHECK(arrc::dist::follow(p, 0, 5) == arrc::Partition::block(5, 4));
}

TEST_CASE("intervals of index expressions") {
  using arrc::dist::Iv;
  namespace d = arrc::dist;
  Iv I(10, 19);
  // select(i > 0, i - 1, 0) over [10, 19] takes only the first side
  Iv prev = d::select(d::truth(d::of(d::lt(Iv(0), I))), I - Iv(1), Iv(0));
  CHECK(prev.lo == 9);
  CHECK(prev.hi == 18);
  Iv first(0, 9);
  Iv p0 = d::select(d::truth(d::of(d::lt(Iv(0), first))), first - Iv(1), Iv(0));
  CHECK(p0.lo == -1); // maybe either side: the hull
  CHECK(p0.hi == 8);
  Iv q = d::div(Iv(30, 59), Iv(3));
  CHECK(q.lo == 10);
  CHECK(q.hi == 19);
  Iv r = d::mod(Iv(30, 59), Iv(3));
  CHECK(r.lo == 0);
  CHECK(r.hi == 2);
  CHECK(!d::div(Iv(0, 5), Iv(-1, 1)).known);
  CHECK(!d::fit(Iv::any(), 32).known);
  CHECK(d::fit(Iv(0, int64_t(1) << 40), 32).lo == -(int64_t(1) << 31));
  CHECK(!(Iv(INT64_MAX) + Iv(1)).known); // overflow: unbounded
  CHECK(d::hull(Iv::none(), Iv(3, 4)).lo == 3);
  CHECK(d::upto(Iv(5)).hi == 4);
  CHECK(d::upto(Iv(0)).empty());
}

TEST_CASE("distributed arrays: from_host, gather, blocked, replicated") {
  arrc::Cluster &cl = *cluster;
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(cl.size() - 1), int64_t(7), int64_t(1000)}) {
    auto host = iotaVec(n, 100);
    auto a = arrc::DistArray<int64_t, 1>::from_host(cl, host, {n});
    CHECK(a.shape(0) == n);
    CHECK(a.local().size(0) == a.partition().count(cl.rank()));
    CHECK(a.to_vector() == host);
    auto r = arrc::DistArray<int64_t, 1>::replicated(cl, arrc::Array<int64_t, 1>::from(cl.context(), host));
    CHECK(r.is_replicated());
    auto b = r.blocked();
    CHECK(b.partition() == arrc::Partition::block(n, cl.size()));
    CHECK(b.to_vector() == host);
  }
  // rank 2: rows of 3
  std::vector<double> m(15);
  std::iota(m.begin(), m.end(), 0.5);
  auto M = arrc::DistArray<double, 2>::from_host(cl, m, {5, 3});
  CHECK(M.local().shape(1) == 3);
  CHECK(M.to_vector() == m);
  // scattered from rank 0 (other ranks pass nothing)
  auto s = arrc::DistArray<double, 2>::scatter(cl, cl.rank() == 0 ? m : std::vector<double>{},
                                                cl.rank() == 0 ? std::array<int64_t, 2>{5, 3}
                                                               : std::array<int64_t, 2>{0, 0});
  CHECK(s.shape(0) == 5);
  CHECK(s.to_vector() == m);
  // from_local: every rank's own rows, uneven (rank r holds r + 1 rows)
  std::vector<int32_t> mine(static_cast<size_t>(cl.rank() + 1), cl.rank());
  auto fl = arrc::DistArray<int32_t, 1>::from_local(cl, arrc::Array<int32_t, 1>::from(cl.context(), mine));
  int64_t total = int64_t(cl.size()) * (cl.size() + 1) / 2;
  CHECK(fl.shape(0) == total);
  std::vector<int32_t> want;
  for (int r = 0; r < cl.size(); ++r) want.insert(want.end(), static_cast<size_t>(r + 1), r);
  CHECK(fl.to_vector() == want);
}

TEST_CASE("windows: own rows, a neighbour's, reversed, all") {
  arrc::Cluster &cl = *cluster;
  using arrc::dist::Iv;
  const int64_t n = 11;
  auto host = iotaVec(n, 1000);
  auto a = arrc::DistArray<int64_t, 1>::from_host(cl, host, {n});
  const auto &p = a.partition();
  int me = cl.rank();
  auto readAll = [&](const arrc::Array<int64_t, 1> &w, int64_t lo, int64_t hi) {
    // rows [lo, hi) through the global-indexed view
    std::vector<int64_t> got;
    if (hi <= lo) return got;
    auto v = w.slice(0, lo, hi - 1).to_vector();
    return v;
  };
  // own rows: no data moves, the view is indexed globally
  Iv own = p.count(me) > 0 ? Iv(p.lo(me), p.hi(me) - 1) : Iv::none();
  auto w = arrc::dist::window(a, own);
  CHECK(w.shape(0) == n);
  CHECK(readAll(w, p.lo(me), p.hi(me)) ==
        std::vector<int64_t>(host.begin() + p.lo(me), host.begin() + p.hi(me)));
  // one row before (a halo), clipped at 0
  Iv halo = p.count(me) > 0 ? Iv(p.lo(me) - 1, p.hi(me) - 1) : Iv::none();
  auto h = arrc::dist::window(a, halo);
  int64_t hlo = std::max<int64_t>(p.lo(me) - 1, 0);
  if (p.count(me) > 0)
    CHECK(readAll(h, hlo, p.hi(me)) == std::vector<int64_t>(host.begin() + hlo, host.begin() + p.hi(me)));
  // the mirrored rows: n - 1 - i
  Iv mir = p.count(me) > 0 ? Iv(n - p.hi(me), n - 1 - p.lo(me)) : Iv::none();
  auto m = arrc::dist::window(a, mir);
  if (p.count(me) > 0)
    CHECK(readAll(m, n - p.hi(me), n - p.lo(me)) ==
          std::vector<int64_t>(host.begin() + (n - p.hi(me)), host.begin() + (n - p.lo(me))));
  // unbounded: everything
  auto all = arrc::dist::window(a, Iv::any());
  CHECK(readAll(all, 0, n) == host);
  // the same halo from the index space's partition, every rank computing every rank's rows
  auto hs = arrc::dist::window(a, p, [&](const Iv &I) { return arrc::dist::hull(I - Iv(1), I); });
  if (p.count(me) > 0)
    CHECK(readAll(hs, hlo, p.hi(me)) == std::vector<int64_t>(host.begin() + hlo, host.begin() + p.hi(me)));
  auto same = arrc::dist::window(a, p, [&](const Iv &I) { return I; }); // covered: a view of its rows
  CHECK(same.buffer() == a.local().buffer());
  // this rank's rows of another partition, indexed from 0
  auto other = arrc::Partition::of_counts([&] {
    std::vector<int64_t> c(static_cast<size_t>(cl.size()), 0);
    c.back() = n; // everything to the last rank
    return c;
  }());
  auto rows = arrc::dist::rows(a, other);
  CHECK(rows.shape(0) == other.count(me));
  if (me == cl.size() - 1) CHECK(rows.to_vector() == host);
}

TEST_CASE("reduce_scatter: bins summed over ranks, distributed") {
  arrc::Cluster &cl = *cluster;
  std::vector<int32_t> bins(9);
  for (size_t b = 0; b < bins.size(); ++b) bins[b] = int32_t(b) * (cl.rank() + 1);
  auto d = arrc::dist::reduce_scatter(cl, arrc::Array<int32_t, 1>::from(cl.context(), bins), arrc::dist::Op::sum);
  std::vector<int32_t> want(9);
  int f = cl.size() * (cl.size() + 1) / 2;
  for (size_t b = 0; b < want.size(); ++b) want[b] = int32_t(b) * f;
  CHECK(d.to_vector() == want);
  auto mx = arrc::dist::reduce_scatter(cl, arrc::Array<double, 1>::from(cl.context(), std::vector<double>{1.0 * cl.rank(), -1.0 * cl.rank()}),
                                       arrc::dist::Op::max);
  CHECK(mx.to_vector() == std::vector<double>{double(cl.size() - 1), 0.0});
}

TEST_CASE("sample sort exchange: globally sorted and stable") {
  arrc::Cluster &cl = *cluster;
  // keys with many duplicates; the value is the element's global index;
  // also fewer elements than ranks, and none
  for (const int64_t n : {int64_t(57), int64_t(1000), int64_t(2), int64_t(0)}) {
  CAPTURE(n);
  std::vector<int32_t> keys(n);
  std::vector<int64_t> idx(n);
  for (int64_t i = 0; i < n; ++i) {
    keys[i] = int32_t((i * 7) % 5) - 2;
    idx[i] = i;
  }
  auto part = arrc::Partition::block(n, cl.size());
  int me = cl.rank();
  // this rank's rows, sorted stably on the host (as the device sort would)
  std::vector<int64_t> order(static_cast<size_t>(part.count(me)));
  std::iota(order.begin(), order.end(), part.lo(me));
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });
  std::vector<int32_t> k;
  std::vector<int64_t> v;
  for (int64_t i : order) {
    k.push_back(keys[i]);
    v.push_back(idx[i]);
  }
  auto K = arrc::Array<int32_t, 1>::from(cl.context(), k);
  auto V = arrc::Array<int64_t, 1>::from(cl.context(), v);
  bool moved = arrc::dist::sort_exchange(cl, K, V);
  CHECK(moved == (cl.size() > 1));
  // what arrived, stably sorted again, then gathered in rank order
  std::vector<int32_t> gk = K.to_vector();
  std::vector<int64_t> gv = V.to_vector();
  std::vector<size_t> o(gk.size());
  std::iota(o.begin(), o.end(), 0);
  std::stable_sort(o.begin(), o.end(), [&](size_t a, size_t b) { return gk[a] < gk[b]; });
  std::vector<int64_t> sortedIdx;
  for (size_t i : o) sortedIdx.push_back(gv[i]);
  auto all = arrc::DistArray<int64_t, 1>::from_local(cl, arrc::Array<int64_t, 1>::from(cl.context(), sortedIdx));
  std::vector<int64_t> want(n);
  std::iota(want.begin(), want.end(), 0);
  std::stable_sort(want.begin(), want.end(), [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });
  CHECK(all.to_vector() == want);
  }
  // float keys: -0.0 and +0.0 are equal, NaN-free order as the radix sort's
  CHECK(arrc::dist::order_bits(-0.0) == arrc::dist::order_bits(0.0));
  CHECK(arrc::dist::order_bits(-1.5f) < arrc::dist::order_bits(-0.5f));
  CHECK(arrc::dist::order_bits(int64_t(-5)) < arrc::dist::order_bits(int64_t(3)));
}

TEST_CASE("host reads of a distributed element") {
  arrc::Cluster &cl = *cluster;
  auto host = iotaVec(9, 50);
  auto a = arrc::DistArray<int64_t, 1>::from_host(cl, host, {9});
  const char *positions[] = {"t.arr:1:2"};
  for (int64_t i : {int64_t(0), int64_t(4), int64_t(8)})
    CHECK(arrc::gen::read<int64_t, 1>(cl.context(), a, {i}, 0, positions, 1) == 50 + i);
  bool threw = false;
  try {
    cl.run([&] { return arrc::gen::read<int64_t, 1>(cl.context(), a, {9}, 0, positions, 1); });
  } catch (const arrc::ClusterError &e) {
    threw = std::string(e.what()) == "t.arr:1:2: index 9 out of bounds for axis 0 of size 9";
  }
  CHECK(threw);
}

TEST_CASE("error agreement: one rank fails, every rank throws its message") {
  arrc::Cluster &cl = *cluster;
  int last = cl.size() - 1;
  for (int failing : {last, 0}) {
    std::string got;
    try {
      cl.run([&] {
        if (cl.rank() == failing) throw arrc::Error("rank " + std::to_string(failing) + " failed");
        cl.barrier(); // the others wait in a collective: they learn of the failure there
        return 1;
      });
    } catch (const arrc::ClusterError &e) {
      got = e.what();
    }
    CHECK(got == "rank " + std::to_string(failing) + " failed");
  }
  // two ranks fail: the lowest one's message wins
  std::string got;
  try {
    cl.run([&] {
      if (cl.rank() >= cl.size() / 2) throw arrc::Error("failed at rank " + std::to_string(cl.rank()));
      return 0;
    });
  } catch (const arrc::ClusterError &e) {
    got = e.what();
  }
  CHECK(got == "failed at rank " + std::to_string(cl.size() / 2));
  // and the cluster is usable afterwards
  CHECK(cl.allgather(cl.rank()) == iotaVec(cl.size()));
}

int main(int argc, char **argv) {
  int status = 0;
  {
    arrc::Cluster cl;
    cluster = &cl;
    doctest::Context ctx(argc, argv);
    if (cl.rank() != 0) ctx.setOption("out", "/dev/null"); // rank 0 reports
    status = ctx.run();
    // a failure on any rank fails the job
    int mine = status != 0, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, cl.comm());
    status = any;
    cluster = nullptr;
  }
  return status;
}
