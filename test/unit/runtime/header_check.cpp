// Compiles the public headers (and instantiates the main templates) with
// -Wall -Wextra -Wpedantic -Werror, as a user project would.
#include <arrc/runtime.h>

void arrc_header_check(arrc::Context& ctx) {
  auto a = arrc::Array<double, 2>::zeros(ctx, {2, 3});
  auto col = a.section<1>({arrc::Sel::all(), arrc::Sel(1)});
  auto v = col.to_vector();
  (void)v;
  auto t = a.transpose().contiguous();
  (void)t;
  auto x = arrc::Array<float, 1>::from(ctx, std::vector<float>{1, 2});
  float r = arrc::reduce(ctx, x, arrc::Operator::add());
  (void)r;
  auto s = arrc::scan(ctx, x, arrc::Operator::add());
  auto f = arrc::filter(ctx, x, "v > 0");
  auto b = arrc::Array<bool, 1>::from(ctx, std::vector<bool>{true});
  auto bv = b.to_vector();
  (void)bv;
  cl_kernel k = nullptr;
  ctx.launch(k, 4, arrc::NDRange(), x, int64_t{3}, 2.0f, arrc::LocalMem{16}, s.buffer_ptr());
}
