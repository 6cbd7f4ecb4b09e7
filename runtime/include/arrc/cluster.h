// arrc runtime: one Arr program on several devices and machines, over MPI
// (docs/distributed.md). Built as the separate library arrc_cluster (CMake
// target arrc::cluster, only where MPI is found); <arrc/runtime.h> and
// libarrc_runtime stay free of MPI.
//
// The model is SPMD: every rank of an MPI communicator runs the same C++
// program. An arrc::Cluster wraps the communicator and the rank's own
// arrc::Context (the device is chosen by the rank's index on its host, so the
// ranks of one machine take its GPUs in turn; ARRC_DEVICE still narrows the
// choice). An arrc::DistArray<T, D> is either block-distributed along axis 0
// (rank r holds the rows [bounds[r], bounds[r+1]) of a Partition) or
// replicated (every rank holds all of it). Generated headers, compiled with
// ARRC_MPI defined, add to every export an overload taking the Cluster and
// distributed arrays; it returns what the single-device call returns.
//
// Every collective below must be called by all ranks in the same order. Each
// starts with Cluster::sync(), which is how an error raised on one rank
// (a bounds error in its part of a kernel, say) reaches the others: see
// Cluster::run.
#pragma once

#include <arrc/runtime.h>

// MPI's C API only: Open MPI's and MPICH's old C++ bindings stay out (they
// warn under -Wextra and cost compile time).
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace arrc {

// An error every rank of a Cluster agreed on (every rank throws it).
class ClusterError : public Error {
public:
  using Error::Error;
};

// Rows of each rank along axis 0: rank r holds [bounds[r], bounds[r + 1]).
struct Partition {
  std::vector<int64_t> bounds;  // parts + 1 entries, non-decreasing, from 0

  // n rows split as evenly as possible (the first n % parts ranks get one more).
  static Partition block(int64_t n, int parts) {
    Partition p;
    p.bounds.resize(static_cast<size_t>(parts) + 1);
    int64_t q = n / parts, r = n % parts;
    for (int k = 0; k <= parts; ++k) p.bounds[k] = q * k + std::min<int64_t>(k, r);
    return p;
  }
  static Partition of_counts(const std::vector<int64_t>& counts) {
    Partition p;
    p.bounds.assign(1, 0);
    for (int64_t c : counts) p.bounds.push_back(p.bounds.back() + c);
    return p;
  }
  int parts() const { return static_cast<int>(bounds.size()) - 1; }
  int64_t total() const { return bounds.back(); }
  int64_t lo(int r) const { return bounds[r]; }
  int64_t hi(int r) const { return bounds[r + 1]; }
  int64_t count(int r) const { return bounds[r + 1] - bounds[r]; }
  bool operator==(const Partition& o) const { return bounds == o.bounds; }
  bool operator!=(const Partition& o) const { return bounds != o.bounds; }
};

class Cluster {
public:
  // MPI is initialised here when the program has not done it (and then
  // finalised by the last Cluster). The rank's device: options.device_index
  // if set, else the rank's index among the ranks of its host.
  explicit Cluster(MPI_Comm comm = MPI_COMM_WORLD, ContextOptions options = {});
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }  // index among the ranks of this host
  MPI_Comm comm() const { return comm_; }
  Context& context() { return *ctx_; }

  // Runs one distributed call f() (what every generated overload does) so
  // that an exception on some ranks becomes the same arrc::ClusterError on
  // all of them, and nothing hangs: a rank that throws tells the others at
  // their next collective (each begins with sync()) or at the end of the
  // call; all then throw the message of the lowest failing rank.
  template <class F>
  auto run(F&& f) -> decltype(f()) {
    try {
      if constexpr (std::is_void_v<decltype(f())>) {
        f();
        sync();
      } else {
        auto r = f();
        sync();
        return r;
      }
    } catch (const ClusterError&) {
      clear_device_errors();
      throw;
    } catch (const std::exception& e) {
      clear_device_errors();
      fail(e.what());
    }
  }
  // The first step of every collective: throws the agreed ClusterError if
  // any rank has failed (called fail()).
  void sync();
  // This rank failed with `message`: tell the others, then throw the agreed error.
  [[noreturn]] void fail(const std::string& message);

  // --- collectives (sync() first) ------------------------------------------
  std::vector<int64_t> allgather(int64_t v);
  // `bytes` bytes from every rank (the same count everywhere), in rank order.
  std::vector<unsigned char> allgather_bytes(const void* data, size_t bytes);
  void broadcast(void* data, size_t bytes, int root);
  void barrier();
  // Every rank's rows (row_bytes each; rank r sends part.count(r) rows) into
  // `out` (part.total() rows), in rank order.
  void allgather_rows(const void* mine, const Partition& part, size_t row_bytes, void* out);
  // Rows moved between ranks: rank r holds `held` rows [held.lo(r), held.hi(r))
  // (its own in `mine`, contiguous); every rank asks for the rows
  // [need[2q], need[2q+1]) (all ranks pass the same `need`). Writes this
  // rank's rows that other ranks hold into `out` (need_hi - need_lo rows);
  // those it holds itself are left for the caller to copy on the device.
  // `send_rows(q, lo, hi, buf)` writes this rank's rows [lo, hi) to buf.
  void exchange_rows(const Partition& held, const std::vector<int64_t>& need, size_t row_bytes,
                     const std::function<void(int64_t, int64_t, unsigned char*)>& read_rows,
                     unsigned char* out);
  // Element-wise reduction of `n` elements of every rank (MPI op on an MPI
  // type), each rank receiving its block of Partition::block(n, size()):
  // every element is combined once, so all ranks see the same bits.
  void reduce_scatter(const void* mine, void* out, int64_t n, MPI_Datatype type, MPI_Op op);
  // Variable-size exchange of bytes: sends[q] to rank q; returns what each
  // rank sent here, in rank order (with the count from each rank).
  std::vector<unsigned char> alltoallv_bytes(const std::vector<std::vector<unsigned char>>& sends,
                                             std::vector<int64_t>& recv_bytes);

private:
  [[noreturn]] void agree(const std::string* mine);
  void clear_device_errors();

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1, local_rank_ = 0;
  bool owns_mpi_ = false;
  std::unique_ptr<Context> ctx_;
};

template <class T, int D>
class DistArray {
public:
  using value_type = T;
  using shape_type = std::array<int64_t, D>;
  static constexpr int rank = D;

  DistArray() { shape_.fill(0); }
  // Block-distributed: this rank's rows `local` (rows part.lo(rank) ..
  // part.hi(rank)) of an array of global shape `shape`.
  DistArray(Cluster& cl, Array<T, D> local, const shape_type& shape, std::shared_ptr<const Partition> part)
      : cl_(&cl), local_(std::move(local)), shape_(shape), part_(std::move(part)) {}

  // Every rank holds the whole array.
  static DistArray replicated(Cluster& cl, Array<T, D> full) {
    DistArray d;
    d.cl_ = &cl;
    d.shape_ = full.shape();
    d.local_ = std::move(full);
    return d;
  }
  // Block-distributed from each rank's own rows (collective: the partition
  // comes from every rank's row count; the other extents must agree).
  static DistArray from_local(Cluster& cl, Array<T, D> local) {
    auto counts = cl.allgather(local.shape(0));
    auto part = std::make_shared<const Partition>(Partition::of_counts(counts));
    shape_type s = local.shape();
    s[0] = part->total();
    return DistArray(cl, std::move(local), s, std::move(part));
  }
  // Every rank holds all of `full` (on its device): keeps its block of rows,
  // a view (no copy, no communication).
  static DistArray distribute(Cluster& cl, const Array<T, D>& full) {
    return replicated(cl, full).blocked();
  }
  // Every rank holds the row-major host data of the whole array: uploads its
  // block of rows only.
  static DistArray from_host(Cluster& cl, const std::vector<T>& data, const shape_type& shape) {
    auto part = std::make_shared<const Partition>(Partition::block(shape[0], cl.size()));
    int64_t row = 1;
    for (int k = 1; k < D; ++k) row *= shape[k];
    if (static_cast<int64_t>(data.size()) != shape[0] * row)
      throw Error("DistArray::from_host: host data has " + std::to_string(data.size()) +
                  " elements but the shape needs " + std::to_string(shape[0] * row));
    shape_type ls = shape;
    ls[0] = part->count(cl.rank());
    std::vector<T> mine(data.begin() + part->lo(cl.rank()) * row, data.begin() + part->hi(cl.rank()) * row);
    return DistArray(cl, Array<T, D>::from(cl.context(), mine, ls), shape, part);
  }
  // Rank `root` holds the row-major host data (`data`, `shape`; other ranks'
  // arguments are ignored): each rank receives its block (collective).
  static DistArray scatter(Cluster& cl, const std::vector<T>& data, shape_type shape, int root = 0) {
    cl.broadcast(shape.data(), sizeof(shape), root);
    auto part = std::make_shared<const Partition>(Partition::block(shape[0], cl.size()));
    int64_t row = 1;
    for (int k = 1; k < D; ++k) row *= shape[k];
    if (cl.rank() == root && static_cast<int64_t>(data.size()) != shape[0] * row)
      throw Error("DistArray::scatter: host data does not match the shape");
    std::vector<int64_t> need;
    for (int r = 0; r < cl.size(); ++r) {
      need.push_back(part->lo(r));
      need.push_back(part->hi(r));
    }
    Partition held;  // the root holds everything
    held.bounds.assign(static_cast<size_t>(cl.size()) + 1, 0);
    for (int r = root + 1; r <= cl.size(); ++r) held.bounds[r] = shape[0];
    std::vector<storage_t<T>> mine(static_cast<size_t>(part->count(cl.rank()) * row));
    size_t rb = static_cast<size_t>(row) * sizeof(storage_t<T>);
    cl.exchange_rows(held, need, rb,
                     [&](int64_t lo, int64_t hi, unsigned char* buf) {
                       for (int64_t i = lo * row; i < hi * row; ++i) {
                         storage_t<T> v = data[static_cast<size_t>(i)];
                         std::memcpy(buf + (i - lo * row) * sizeof(v), &v, sizeof(v));
                       }
                     },
                     reinterpret_cast<unsigned char*>(mine.data()));
    if (cl.rank() == root)
      for (int64_t i = 0; i < part->count(root) * row; ++i) mine[i] = data[part->lo(root) * row + i];
    shape_type ls = shape;
    ls[0] = part->count(cl.rank());
    Array<T, D> local = Array<T, D>::alloc(cl.context(), ls);
    if (!mine.empty()) cl.context().write(local.buffer(), 0, mine.size() * sizeof(storage_t<T>), mine.data());
    return DistArray(cl, std::move(local), shape, part);
  }

  bool is_replicated() const { return !part_; }
  Cluster& cluster() const { return *cl_; }
  // This rank's rows (all rows when replicated).
  const Array<T, D>& local() const { return local_; }
  const shape_type& shape() const { return shape_; }
  int64_t shape(int k) const { return shape_[k]; }
  int64_t size(int k) const { return shape_[k]; }
  int64_t size() const {
    int64_t n = 1;
    for (int64_t e : shape_) n *= e;
    return n;
  }
  // The rows of each rank (block-distributed arrays only).
  const Partition& partition() const {
    if (!part_) throw Error("DistArray::partition of a replicated array");
    return *part_;
  }
  std::shared_ptr<const Partition> partition_ptr() const { return part_; }
  // The global index of local row 0.
  int64_t first_row() const { return part_ ? part_->lo(cl_->rank()) : 0; }

  // Block-distributed form: a replicated array keeps the rows of
  // Partition::block (a view, no communication).
  DistArray blocked() const {
    if (part_ || !cl_) return *this;
    auto part = std::make_shared<const Partition>(Partition::block(shape_[0], cl_->size()));
    int r = cl_->rank();
    Array<T, D> mine;
    if (part->count(r) > 0) {
      mine = local_.slice(0, part->lo(r), part->hi(r) - 1);
    } else {
      shape_type s = shape_;
      s[0] = 0;
      mine = Array<T, D>(local_.buffer_ptr(), s, local_.weights());
    }
    return DistArray(*cl_, mine, shape_, std::move(part));
  }
  // The whole array on every rank's device (collective; a replicated
  // array is returned as it is).
  Array<T, D> gather() const;
  // The whole array, row-major, on the host of every rank (collective).
  std::vector<T> to_vector() const { return gather().to_vector(); }

private:
  Cluster* cl_ = nullptr;
  Array<T, D> local_;
  shape_type shape_;
  std::shared_ptr<const Partition> part_;  // null: replicated
};

// ---------------------------------------------------------------------------
// What generated code calls (docs/distributed.md, "Lowering").
namespace dist {

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, int32_t>) return MPI_INT32_T;
  else if constexpr (std::is_same_v<T, int64_t>) return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, uint8_t>) return MPI_UINT8_T;
  else static_assert(sizeof(T) == 0, "no MPI type for this element type");
}

template <class T, int D>
size_t row_bytes(const std::array<int64_t, D>& shape) {
  size_t b = sizeof(storage_t<T>);
  for (int k = 1; k < D; ++k) b *= static_cast<size_t>(shape[k]);
  return b;
}

// A global-indexed view of `a`, whose local row 0 is global row `first`:
// element [i, ...] of the view is row i - first of a. Kernels index it with
// global row numbers and check bounds against the global shape, so errors
// read as in a single-device run.
template <class T, int D>
Array<T, D> shifted(const Array<T, D>& a, const typename Array<T, D>::shape_type& global, int64_t first) {
  auto w = a.weights();
  w[D] = a.offset() - first * a.weight(0);
  return Array<T, D>(a.buffer_ptr(), global, w);
}

// ---- index intervals: which rows a SOAC body may read. Generated code
// evaluates each read's axis-0 index as an interval over this rank's part
// of the index space; what cannot be bounded is `any`.
struct Iv {
  int64_t lo = 0, hi = -1;  // inclusive; lo > hi: empty
  bool known = true;
  Iv() = default;
  Iv(int64_t v) : lo(v), hi(v) {}  // NOLINT: implicit on purpose
  Iv(int64_t l, int64_t h) : lo(l), hi(h) {}
  static Iv any() {
    Iv r(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    r.known = false;
    return r;
  }
  static Iv none() { return Iv(0, -1); }
  bool empty() const { return known && lo > hi; }
};
// Three-valued truth of a condition over intervals.
enum class Tri { no, yes, maybe };

namespace iv_detail {
inline bool add_ok(int64_t a, int64_t b, int64_t& r) { return !__builtin_add_overflow(a, b, &r); }
inline bool mul_ok(int64_t a, int64_t b, int64_t& r) { return !__builtin_mul_overflow(a, b, &r); }
inline int64_t tdiv(int64_t a, int64_t b) {  // Arr's division: x / 0 == 0, MIN / -1 == MIN
  if (b == 0) return 0;
  if (b == -1) return static_cast<int64_t>(0ull - static_cast<uint64_t>(a));
  return a / b;
}
}  // namespace iv_detail

inline Iv hull(const Iv& a, const Iv& b) {
  if (!a.known || !b.known) return Iv::any();
  if (a.empty()) return b;
  if (b.empty()) return a;
  return Iv(std::min(a.lo, b.lo), std::max(a.hi, b.hi));
}
inline Iv operator+(const Iv& a, const Iv& b) {
  if (!a.known || !b.known) return Iv::any();
  if (a.empty() || b.empty()) return Iv::none();
  Iv r;
  if (!iv_detail::add_ok(a.lo, b.lo, r.lo) || !iv_detail::add_ok(a.hi, b.hi, r.hi)) return Iv::any();
  return r;
}
inline Iv operator-(const Iv& a) {
  if (!a.known || a.lo == std::numeric_limits<int64_t>::min()) return Iv::any();
  if (a.empty()) return a;
  return Iv(-a.hi, -a.lo);
}
inline Iv operator-(const Iv& a, const Iv& b) { return a + (-b); }
inline Iv operator*(const Iv& a, const Iv& b) {
  if (!a.known || !b.known) return Iv::any();
  if (a.empty() || b.empty()) return Iv::none();
  int64_t c[4];
  if (!iv_detail::mul_ok(a.lo, b.lo, c[0]) || !iv_detail::mul_ok(a.lo, b.hi, c[1]) ||
      !iv_detail::mul_ok(a.hi, b.lo, c[2]) || !iv_detail::mul_ok(a.hi, b.hi, c[3]))
    return Iv::any();
  return Iv(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
}
// Truncating division by divisors of one sign (or a single divisor).
inline Iv div(const Iv& a, const Iv& b) {
  if (!a.known || !b.known) return Iv::any();
  if (a.empty() || b.empty()) return Iv::none();
  if (!((b.lo > 0) || (b.hi < 0) || (b.lo == b.hi))) return Iv::any();
  int64_t c[4] = {iv_detail::tdiv(a.lo, b.lo), iv_detail::tdiv(a.lo, b.hi), iv_detail::tdiv(a.hi, b.lo),
                  iv_detail::tdiv(a.hi, b.hi)};
  if (b.lo == b.hi && b.lo == -1) return -a;
  return Iv(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
}
inline Iv mod(const Iv& a, const Iv& b) {
  if (!a.known || !b.known) return Iv::any();
  if (a.empty() || b.empty()) return Iv::none();
  if (b.lo == b.hi && b.lo > 0 && a.lo >= 0) {
    if (a.lo / b.lo == a.hi / b.lo) return Iv(a.lo % b.lo, a.hi % b.lo);
    return Iv(0, b.lo - 1);
  }
  if (b.lo == b.hi && b.lo > 0) return Iv(-(b.lo - 1), b.lo - 1);
  return Iv::any();
}
inline Iv min(const Iv& a, const Iv& b) {
  if (!a.known || !b.known) return Iv::any();
  if (a.empty() || b.empty()) return Iv::none();
  return Iv(std::min(a.lo, b.lo), std::min(a.hi, b.hi));
}
inline Iv max(const Iv& a, const Iv& b) {
  if (!a.known || !b.known) return Iv::any();
  if (a.empty() || b.empty()) return Iv::none();
  return Iv(std::max(a.lo, b.lo), std::max(a.hi, b.hi));
}
inline Iv abs(const Iv& a) {
  if (!a.known) return Iv::any();
  if (a.empty() || a.lo >= 0) return a;
  if (a.hi <= 0) return -a;
  Iv n = -a;
  return n.known ? Iv(0, std::max(n.hi, a.hi)) : Iv::any();
}
// A conversion to an integer type of `bits` bits: the same values if they fit.
inline Iv fit(const Iv& a, int bits) {
  if (!a.known || a.empty() || bits >= 64) return a;
  int64_t lim = int64_t(1) << (bits - 1);
  if (a.lo >= -lim && a.hi < lim) return a;
  return Iv(-lim, lim - 1);
}
inline Iv of(Tri t) { return t == Tri::yes ? Iv(1) : t == Tri::no ? Iv(0) : Iv(0, 1); }
inline Tri truth(const Iv& a) {
  if (!a.known || a.empty()) return Tri::maybe;
  if (a.lo == 0 && a.hi == 0) return Tri::no;
  if (a.lo > 0 || a.hi < 0) return Tri::yes;
  return Tri::maybe;
}
inline Tri lt(const Iv& a, const Iv& b) {
  if (!a.known || !b.known || a.empty() || b.empty()) return Tri::maybe;
  if (a.hi < b.lo) return Tri::yes;
  if (a.lo >= b.hi) return Tri::no;
  return Tri::maybe;
}
inline Tri le(const Iv& a, const Iv& b) {
  if (!a.known || !b.known || a.empty() || b.empty()) return Tri::maybe;
  if (a.hi <= b.lo) return Tri::yes;
  if (a.lo > b.hi) return Tri::no;
  return Tri::maybe;
}
inline Tri eq(const Iv& a, const Iv& b) {
  if (!a.known || !b.known || a.empty() || b.empty()) return Tri::maybe;
  if (a.lo == a.hi && b.lo == b.hi && a.lo == b.lo) return Tri::yes;
  if (a.hi < b.lo || b.hi < a.lo) return Tri::no;
  return Tri::maybe;
}
inline Tri not_(Tri a) { return a == Tri::yes ? Tri::no : a == Tri::no ? Tri::yes : Tri::maybe; }
inline Tri and_(Tri a, Tri b) {
  if (a == Tri::no || b == Tri::no) return Tri::no;
  if (a == Tri::yes && b == Tri::yes) return Tri::yes;
  return Tri::maybe;
}
inline Tri or_(Tri a, Tri b) { return not_(and_(not_(a), not_(b))); }
// select(c, a, b): only the side the condition can take.
inline Iv select(Tri c, const Iv& a, const Iv& b) {
  return c == Tri::yes ? a : c == Tri::no ? b : hull(a, b);
}
// The index values of loop `for k < count`: [0, count - 1].
inline Iv upto(const Iv& count) {
  if (!count.known) return Iv::any();
  if (count.empty() || count.hi <= 0) return Iv::none();
  return Iv(0, count.hi - 1);
}

// ---- index spaces
// The rows of an index space of n elements, following the rows of `anchor`
// (a block-distributed array the SOAC reads at row i / factor): rank r
// takes [factor * lo(r), factor * hi(r)) clipped to n; the last rank also
// takes what lies past factor * rows (reads there fail their bounds checks
// exactly as on one device).
inline Partition follow(const Partition& anchor, int64_t factor, int64_t n) {
  int P = anchor.parts();
  if (factor < 1 || n < 0) return Partition::block(std::max<int64_t>(n, 0), P);
  Partition p;
  p.bounds.resize(static_cast<size_t>(P) + 1);
  for (int r = 0; r < P; ++r) {
    int64_t b = anchor.bounds[r];
    p.bounds[r] = b > n / factor ? n : std::min(n, b * factor);
  }
  p.bounds[P] = n;
  return p;
}
template <class T, int D>
Partition follow(const DistArray<T, D>& anchor, int64_t factor, int64_t n) {
  if (anchor.is_replicated()) return Partition::block(std::max<int64_t>(n, 0), anchor.cluster().size());
  return follow(anchor.partition(), factor, n);
}

// ---- collectives on distributed arrays (sync() first, each)

template <class T, int D>
Array<T, D> replicate(const DistArray<T, D>& a) {
  return a.gather();
}

// The rows [lo, hi) of an array of `rows` rows that an interval of indices
// touches (an unbounded one: all).
inline std::pair<int64_t, int64_t> clip_rows(const Iv& need, int64_t rows) {
  if (!need.known) return {0, rows};
  if (need.empty()) return {0, 0};
  int64_t lo = std::max<int64_t>(need.lo, 0), hi = std::min<int64_t>(need.hi, rows - 1) + 1;
  return hi > lo ? std::make_pair(lo, hi) : std::make_pair(int64_t(0), int64_t(0));
}

// A global-indexed view holding the rows [needs[2r], needs[2r+1]) on each
// rank r (every rank passes the same `needs`): this rank's own rows when they
// cover what every rank needs -- then nothing is communicated at all -- else
// the rows moved between ranks (MPI_Alltoallv) into a new buffer. Rows
// outside this rank's range must not be read through it.
template <class T, int D>
Array<T, D> window_rows(const DistArray<T, D>& a, const std::vector<int64_t>& needs) {
  if (a.is_replicated()) return a.local();
  Cluster& cl = a.cluster();
  const Partition& held = a.partition();
  bool covered = true;
  for (int r = 0; r < cl.size(); ++r) {
    int64_t l = needs[2 * r], h = needs[2 * r + 1];
    if (h > l && (l < held.lo(r) || h > held.hi(r))) covered = false;
  }
  if (covered) return shifted(a.local(), a.shape(), a.first_row());
  int me = cl.rank();
  int64_t lo = needs[2 * me], hi = needs[2 * me + 1];
  if (hi < lo) hi = lo;
  size_t rb = row_bytes<T, D>(a.shape());
  typename Array<T, D>::shape_type ws = a.shape();
  ws[0] = hi - lo;
  Array<T, D> w = Array<T, D>::alloc(cl.context(), ws);
  std::vector<unsigned char> got(static_cast<size_t>(hi - lo) * rb);
  const Array<T, D>& mine = a.local();
  int64_t first = a.first_row();
  cl.exchange_rows(held, needs, rb,
                   [&](int64_t l, int64_t h, unsigned char* buf) {
                     mine.slice(0, l - first, h - first - 1).copy_to(reinterpret_cast<T*>(buf));
                   },
                   got.data());
  // the rows held elsewhere arrived in `got`; this rank's own rows are copied on the device
  for (int r = 0; r < cl.size(); ++r) {
    if (r == me) continue;
    int64_t l = std::max(lo, held.lo(r)), h = std::min(hi, held.hi(r));
    if (h <= l) continue;
    w.slice(0, l - lo, h - lo - 1).copy_from(reinterpret_cast<const T*>(got.data() + (l - lo) * rb));
  }
  int64_t ol = std::max(lo, held.lo(me)), oh = std::min(hi, held.hi(me));
  if (oh > ol) w.slice(0, ol - lo, oh - lo - 1).assign(mine.slice(0, ol - first, oh - first - 1));
  return shifted(w, a.shape(), lo);
}

// The window of the rows `need` of this rank (collective: the ranks tell
// each other what they need).
template <class T, int D>
Array<T, D> window(const DistArray<T, D>& a, Iv need) {
  if (a.is_replicated()) return a.local();
  Cluster& cl = a.cluster();
  auto mine = clip_rows(need, a.shape(0));
  int64_t pair[2] = {mine.first, mine.second};
  auto b = cl.allgather_bytes(pair, sizeof pair);
  std::vector<int64_t> needs(2 * static_cast<size_t>(cl.size()));
  std::memcpy(needs.data(), b.data(), b.size());
  return window_rows(a, needs);
}

// The window a SOAC over the index space `space` needs: `need(I)` gives the
// rows read by the indices I of one rank. Every rank evaluates it for every
// rank (the space and the values it uses are the same everywhere), so a
// window that is already covered costs no communication.
template <class T, int D, class F>
Array<T, D> window(const DistArray<T, D>& a, const Partition& space, F need) {
  if (a.is_replicated()) return a.local();
  std::vector<int64_t> needs;
  for (int r = 0; r < space.parts(); ++r) {
    // a rank without indices reads nothing
    auto rows = space.count(r) > 0 ? clip_rows(need(Iv(space.lo(r), space.hi(r) - 1)), a.shape(0))
                                   : std::make_pair(int64_t(0), int64_t(0));
    needs.push_back(rows.first);
    needs.push_back(rows.second);
  }
  return window_rows(a, needs);
}

// This rank's rows of `part` (a partition of a's rows), indexed locally
// from 0: a's own rows when the partitions agree, else moved between ranks.
template <class T, int D>
Array<T, D> rows(const DistArray<T, D>& a, const Partition& part) {
  Cluster& cl = a.cluster();
  int me = cl.rank();
  if (a.is_replicated()) {
    cl.sync();
    if (part.count(me) == 0) {
      auto s = a.local().shape();
      s[0] = 0;
      return Array<T, D>::alloc(cl.context(), s);
    }
    return a.local().slice(0, part.lo(me), part.hi(me) - 1);
  }
  if (a.partition() == part) {
    cl.sync();
    return a.local();
  }
  Iv need = part.count(me) > 0 ? Iv(part.lo(me), part.hi(me) - 1) : Iv::none();
  Array<T, D> w = window(a, need);
  auto s = a.shape();
  s[0] = part.count(me);
  auto wt = w.weights();
  wt[D] = w.offset() + part.lo(me) * w.weight(0);
  return Array<T, D>(w.buffer_ptr(), s, wt);
}

// Block-distributed form of an array every rank holds (no communication).
template <class T, int D>
DistArray<T, D> blocked(Cluster& cl, const Array<T, D>& full) {
  return DistArray<T, D>::distribute(cl, full);
}
template <class T, int D>
DistArray<T, D> blocked(Cluster&, const DistArray<T, D>& a) {
  return a.blocked();
}
// The block-distributed array whose rows on this rank are `local`, rows
// [part.lo(rank), part.hi(rank)) of a shape[0] = part.total() array.
template <class T, int D>
DistArray<T, D> with_rows(Cluster& cl, Array<T, D> local, std::shared_ptr<const Partition> part) {
  auto s = local.shape();
  s[0] = part->total();
  return DistArray<T, D>(cl, std::move(local), s, std::move(part));
}
template <class T, int D>
DistArray<T, D> from_local(Cluster& cl, Array<T, D> local) {
  return DistArray<T, D>::from_local(cl, std::move(local));
}
inline std::shared_ptr<const Partition> share(Partition p) {
  return std::make_shared<const Partition>(std::move(p));
}

// Every rank's partial result of a reduction (`bytes` each), in rank order,
// and every rank's element count (to skip empty parts).
inline std::vector<unsigned char> partials(Cluster& cl, const void* mine, size_t bytes) {
  return cl.allgather_bytes(mine, bytes);
}

// A histogram every rank computed over its part: element-wise `op` over the
// ranks (MPI_Reduce_scatter), each rank keeping its block of the bins.
enum class Op { sum, prod, min, max };
inline MPI_Op mpi_op(Op op) {
  switch (op) {
  case Op::sum: return MPI_SUM;
  case Op::prod: return MPI_PROD;
  case Op::min: return MPI_MIN;
  case Op::max: return MPI_MAX;
  }
  return MPI_SUM;
}
template <class T>
DistArray<T, 1> reduce_scatter(Cluster& cl, const Array<T, 1>& mine, Op op) {
  int64_t n = mine.size(0);
  auto part = share(Partition::block(n, cl.size()));
  if (cl.size() == 1) {  // nothing to combine
    cl.sync();
    return DistArray<T, 1>(cl, mine, {n}, part);
  }
  std::vector<T> host = mine.to_vector();
  std::vector<T> out(static_cast<size_t>(part->count(cl.rank())));
  cl.reduce_scatter(host.data(), out.data(), n, mpi_type<T>(), mpi_op(op));
  Array<T, 1> local = Array<T, 1>::from(cl.context(), out);
  return DistArray<T, 1>(cl, std::move(local), {n}, part);
}

// Overwrites element 0 of a rank-1 array (the carry of an exclusive scan).
template <class T>
void set_first(Context& ctx, const Array<T, 1>& a, T v) {
  if (a.size(0) == 0) return;
  storage_t<T> s = v;
  ctx.write(a.buffer(), static_cast<size_t>(a.offset()) * sizeof(s), sizeof(s), &s);
}
// Element 0 of a rank-1 array, or `otherwise` when it is empty (not collective).
template <class T>
T first_or(Context& ctx, const Array<T, 1>& a, T otherwise) {
  if (a.size(0) == 0) return otherwise;
  storage_t<T> s{};
  ctx.read(a.buffer(), static_cast<size_t>(a.offset()) * sizeof(s), sizeof(s), &s);
  return T(s);
}

// ---- sample sort
// The order of sort keys as the device's radix sort sees them (floats
// canonicalised so -0.0 == +0.0, then IEEE total order of the bits).
template <class K>
uint64_t order_bits(K k) {
  if constexpr (std::is_same_v<K, bool>) {
    return k ? 1 : 0;
  } else if constexpr (std::is_same_v<K, float>) {
    float c = k + 0.0f;
    uint32_t u;
    std::memcpy(&u, &c, 4);
    return (u >> 31) ? ~u & 0xFFFFFFFFu : u ^ 0x80000000u;
  } else if constexpr (std::is_same_v<K, double>) {
    double c = k + 0.0;
    uint64_t u;
    std::memcpy(&u, &c, 8);
    return (u >> 63) ? ~u : u ^ 0x8000000000000000ull;
  } else {
    return static_cast<uint64_t>(static_cast<int64_t>(k)) ^ 0x8000000000000000ull;
  }
}
// The splitting step of a distributed stable sort, on keys sorted on each
// rank: regular samples (16 per rank and rank, read from the device one by
// one) give size()-1 splitters (key, rank, position); the rank and position
// break ties, so equal keys split in input order. `key_at(i)` reads the
// order bits of local element i. Returns every rank's cuts: rank r sends its
// elements [cuts[r][q], cuts[r][q+1]) to rank q (collective).
std::vector<std::vector<int64_t>> sort_cuts(Cluster& cl, int64_t n, const std::function<uint64_t(int64_t)>& key_at);
// Moves the buckets of one sorted column: this rank keeps its own bucket on
// the device and receives the others' (MPI_Alltoallv of the elements that
// change rank only: two ranges out, two ranges in, through host memory).
// Afterwards rank r holds bucket r: runs from ranks 0, 1, ... in order, each
// sorted, so a stable local sort gives the globally stable order.
void exchange_buckets(Cluster& cl, size_t elem, const std::vector<std::vector<int64_t>>& cuts,
                      const std::function<void(int64_t, int64_t, void*)>& read,
                      const std::function<void(int64_t, int64_t, const void*)>& write,
                      const std::function<void(int64_t, int64_t, int64_t)>& copy_own);

template <class T>
Array<T, 1> exchange_column(Cluster& cl, const Array<T, 1>& a, const std::vector<std::vector<int64_t>>& cuts) {
  using S = storage_t<T>;
  int me = cl.rank();
  int64_t total = 0;
  for (int r = 0; r < cl.size(); ++r) total += cuts[r][me + 1] - cuts[r][me];
  Array<T, 1> out = Array<T, 1>::alloc(cl.context(), {total});
  exchange_buckets(
      cl, sizeof(S), cuts,
      [&](int64_t lo, int64_t hi, void* buf) { a.slice(0, lo, hi - 1).copy_to(static_cast<T*>(buf)); },
      [&](int64_t lo, int64_t hi, const void* buf) { out.slice(0, lo, hi - 1).copy_from(static_cast<const T*>(buf)); },
      [&](int64_t from, int64_t to, int64_t count) { out.slice(0, to, to + count - 1).assign(a.slice(0, from, from + count - 1)); });
  return out;
}

// Sorted keys and values of this rank in, this rank's bucket out (the
// arrays replaced; sort them again, stably, on the device). Returns false
// when nothing moved (one rank): the arrays are then still sorted.
template <class K, class... V>
bool sort_exchange(Cluster& cl, Array<K, 1>& keys, Array<V, 1>&... values) {
  if (cl.size() == 1) {
    cl.sync();
    return false;
  }
  Context& ctx = cl.context();
  auto cuts = sort_cuts(cl, keys.size(0), [&](int64_t i) {
    storage_t<K> s{};
    ctx.read(keys.buffer(), static_cast<size_t>(keys.offset() + i * keys.weight(0)) * sizeof(s), sizeof(s), &s);
    return order_bits<K>(K(s));
  });
  keys = exchange_column(cl, keys, cuts);
  ((values = exchange_column(cl, values, cuts)), ...);
  return true;
}

}  // namespace dist

// The whole array on every rank (MPI_Allgatherv of the rows).
template <class T, int D>
Array<T, D> DistArray<T, D>::gather() const {
  if (!part_) return local_;
  Cluster& cl = *cl_;
  if (cl.size() == 1) {
    cl.sync();
    return local_;
  }
  size_t rb = dist::row_bytes<T, D>(shape_);
  std::vector<storage_t<T>> mine(static_cast<size_t>(local_.size()));
  if (!mine.empty()) local_.copy_to(reinterpret_cast<T*>(mine.data()));
  std::vector<storage_t<T>> all(static_cast<size_t>(size()));
  cl.allgather_rows(mine.data(), *part_, rb, all.data());
  Array<T, D> out = Array<T, D>::alloc(cl.context(), shape_);
  if (!all.empty()) cl.context().write(out.buffer(), 0, all.size() * sizeof(storage_t<T>), all.data());
  return out;
}

// A host-level read of one element of a distributed array (Arr's `xs[i]`
// outside a parallel body): checked against the global shape, read by the
// rank that holds it and broadcast (collective).
namespace gen {
template <class T, int D>
inline T read(Context& ctx, const DistArray<T, D>& a, const std::array<int64_t, D>& idx, int pos,
              const char* const* positions, size_t count) {
  (void)ctx;
  Cluster& cl = a.cluster();
  // this rank's pending device errors first, as a single-device read reports them
  cl.context().check_errors(positions, count);
  for (int k = 0; k < D; ++k)
    if (idx[k] < 0 || idx[k] >= a.shape(k))
      throw bounds_error(pos >= 0 && size_t(pos) < count ? positions[pos] : "", idx[k], a.shape(k), k);
  int owner = cl.rank();
  std::array<int64_t, D> li = idx;
  if (!a.is_replicated()) {
    const Partition& part = a.partition();
    owner = static_cast<int>(std::upper_bound(part.bounds.begin(), part.bounds.end(), idx[0]) -
                             part.bounds.begin()) - 1;
    li[0] -= part.lo(owner);
  }
  storage_t<T> v{};
  if (cl.rank() == owner) {
    const Array<T, D>& l = a.local();
    int64_t off = l.offset();
    for (int k = 0; k < D; ++k) off += li[k] * l.weight(k);
    cl.context().read(l.buffer(), static_cast<size_t>(off) * sizeof(v), sizeof(v), &v);
  }
  if (a.is_replicated()) cl.sync();
  else cl.broadcast(&v, sizeof(v), owner);
  return T(v);
}
}  // namespace gen

}  // namespace arrc
