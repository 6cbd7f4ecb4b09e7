// Compiles <arrc/cluster.h> and <arrc/harness_mpi.h> and instantiates their
// templates with -Wall -Wextra -Wpedantic -Werror, as a user project would.
#include <arrc/harness_mpi.h>

void arrc_cluster_header_check(arrc::Cluster& cl) {
  auto a = arrc::DistArray<double, 2>::from_host(cl, std::vector<double>(6), {3, 2});
  auto w = arrc::dist::window(a, arrc::dist::hull(arrc::dist::Iv(0, 1), arrc::dist::Iv::any()));
  auto r = arrc::dist::rows(a, arrc::Partition::block(3, cl.size()));
  auto w2 = arrc::dist::window(a, arrc::Partition::block(3, cl.size()), [](const arrc::dist::Iv& I) { return I; });
  auto g = a.gather();
  auto b = arrc::DistArray<bool, 1>::replicated(cl, arrc::Array<bool, 1>::from(cl.context(), std::vector<bool>{true}));
  auto bv = b.blocked().to_vector();
  auto f = arrc::dist::from_local(cl, arrc::Array<float, 1>::from(cl.context(), std::vector<float>{1}));
  auto h = arrc::dist::reduce_scatter(cl, f.local(), arrc::dist::Op::min);
  auto k = f.local();
  auto v = arrc::Array<int64_t, 1>::alloc(cl.context(), {1});
  arrc::dist::sort_exchange(cl, k, v);
  const char* pos[] = {""};
  double x = arrc::gen::read<double, 2>(cl.context(), a, {0, 0}, 0, pos, 1);
  auto whole = arrc::harness::gathered(std::make_tuple(a, 1));
  auto d = arrc::harness::distributed(cl, std::make_tuple(g, 2.0f));
  (void)w, (void)w2, (void)r, (void)bv, (void)h, (void)x, (void)whole, (void)d;
}
