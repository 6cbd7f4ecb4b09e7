// One all-pairs N-body step, float 7-tuples (x, y, z, vx, vy, vz, m)
// (bench/programs/nbody.arr). The C++ versions keep the bodies as seven
// arrays (structure of arrays, as arrc does); the inner loop over all bodies
// is an `omp simd` reduction (vectorised: without it the float sums could
// not be reordered), the OpenMP version splits the outer loop over threads.
#include "harness.h"
#include "nbody.hpp"

#include <array>
#include <cmath>

namespace whole {
namespace {

constexpr float kDt = 0.001f, kEps = 0.01f;

using Bodies = std::array<std::vector<float>, 7>;  // x y z vx vy vz m

// Body i's new state in `out` (the pull of every body, itself included: its
// softened distance is eps, its direction zero).
inline void advance(const Bodies& in, int64_t i, float dt, float eps2, Bodies& out) {
  const int64_t n = int64_t(in[0].size());
  const float *X = in[0].data(), *Y = in[1].data(), *Z = in[2].data(), *M = in[6].data();
  const float x = X[i], y = Y[i], z = Z[i];
  float ax = 0, ay = 0, az = 0;
#pragma omp simd reduction(+ : ax, ay, az)
  for (int64_t j = 0; j < n; ++j) {
    float dx = X[j] - x, dy = Y[j] - y, dz = Z[j] - z;
    float inv = 1.0f / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
    float s = M[j] * inv * inv * inv;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  float vx = in[3][i] + dt * ax, vy = in[4][i] + dt * ay, vz = in[5][i] + dt * az;
  out[0][i] = x + dt * vx;
  out[1][i] = y + dt * vy;
  out[2][i] = z + dt * vz;
  out[3][i] = vx;
  out[4][i] = vy;
  out[5][i] = vz;
  out[6][i] = M[i];
}

void step_seq(const Bodies& in, Bodies& out) {
  const int64_t n = int64_t(in[0].size());
  for (int64_t i = 0; i < n; ++i) advance(in, i, kDt, kEps * kEps, out);
}

void step_omp(const Bodies& in, Bodies& out) {
  const int64_t n = int64_t(in[0].size());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) advance(in, i, kDt, kEps * kEps, out);
}

Bodies make_bodies(int64_t n) {
  Bodies b;
  for (int c = 0; c < 3; ++c) b[c] = uniform_floats(31 + c, n, -1.0f, 1.0f);
  for (int c = 3; c < 6; ++c) b[c] = uniform_floats(31 + c, n, -0.05f, 0.05f);
  b[6] = uniform_floats(37, n, 0.5f / float(n), 1.5f / float(n));  // total mass about 1
  return b;
}

Bodies empty_like(int64_t n) {
  Bodies b;
  for (auto& c : b) c.assign(n, 0.0f);
  return b;
}

// Positions and velocities agree to float rounding; the velocity changes
// (dt times the summed forces, in another order) to 1e-3 of the largest.
void check(Row& row, const std::string& what, const Bodies& got, const Bodies& ref, const Bodies& in) {
  static const char* names[7] = {"x", "y", "z", "vx", "vy", "vz", "m"};
  for (int c = 0; c < 7; ++c) expect_close(row, what + " " + names[c], got[c], ref[c], 1e-5);
  for (int c = 3; c < 6; ++c) {
    std::vector<float> dg(in[c].size()), dr(in[c].size());
    for (size_t i = 0; i < dg.size(); ++i) dg[i] = got[c][i] - in[c][i], dr[i] = ref[c][i] - in[c][i];
    expect_close(row, what + " change of " + names[c], dg, dr, 1e-3);
  }
}

using DeviceBodies = std::tuple<arrc::Array<float, 1>, arrc::Array<float, 1>, arrc::Array<float, 1>,
                                arrc::Array<float, 1>, arrc::Array<float, 1>, arrc::Array<float, 1>,
                                arrc::Array<float, 1>>;

DeviceBodies to_device(arrc::Context& ctx, const Bodies& b) {
  using A = arrc::Array<float, 1>;
  return {A::from(ctx, b[0]), A::from(ctx, b[1]), A::from(ctx, b[2]), A::from(ctx, b[3]),
          A::from(ctx, b[4]), A::from(ctx, b[5]), A::from(ctx, b[6])};
}

Bodies to_host(const DeviceBodies& d) {
  return {std::get<0>(d).to_vector(), std::get<1>(d).to_vector(), std::get<2>(d).to_vector(),
          std::get<3>(d).to_vector(), std::get<4>(d).to_vector(), std::get<5>(d).to_vector(),
          std::get<6>(d).to_vector()};
}

}  // namespace

void bench_nbody(Bench& b) {
  const int64_t n = b.size("nbody", 256, 2048, 32768);
  const Bodies in = make_bodies(n);
  Row row;
  row.program = "N-body step";
  row.size = "n=" + std::to_string(n);
  row.type = "float 7-tuple";
  Bodies ref = empty_like(n), got = empty_like(n);
  row.seq = b.time([&] { step_seq(in, ref); });
  row.omp = b.time([&] { step_omp(in, got); });
  check(row, "OpenMP", got, ref, in);

  auto ctx = b.context("nbody");
  DeviceBodies d = to_device(*ctx, in), out;
  ctx->finish();
  row.cold_ms = b.once([&] {
    out = nbody::nbody_step(*ctx, kDt, kEps, d);
    ctx->finish();
  });
  check(row, "arrc (first call)", to_host(out), ref, in);
  row.device = b.device(row, *ctx, [&] {
    out = nbody::nbody_step(*ctx, kDt, kEps, d);
    ctx->finish();
  }, false);
  check(row, "arrc", to_host(out), ref, in);
  row.transfers = b.time([&] { got = to_host(nbody::nbody_step(*ctx, kDt, kEps, to_device(*ctx, in))); },
                         false);
  check(row, "arrc (with transfers)", got, ref, in);
  b.add(std::move(row));
}

}  // namespace whole
