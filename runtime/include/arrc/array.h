// arrc runtime: device-resident multiarrays.
//
// arrc::Array<T, D> is a handle (shared buffer, shape, weights) following
// LANGUAGE.md §6: element [i0..i(D-1)] lives at
//   buffer[i0*w0 + ... + i(D-1)*w(D-1) + wD]     (in elements, not bytes)
// Sections, transpose and reverse only change shape/weights: the buffer is
// shared (std::shared_ptr<Buffer>), so views are cheap and writes through a
// view are visible in every array sharing the buffer.
//
// Element types: bool, int32_t, int64_t, float, double (and any trivially
// copyable T whose layout matches an OpenCL C type). bool is stored on the
// device as one byte (uchar, 0 or 1): kernels see `__global uchar*`.
// Arrays of tuples are tuples of arrays (std::tuple<Array<A,D>, Array<B,D>>):
// structure of arrays, no marshalling.
#pragma once

#include <arrc/context.h>

#include <array>
#include <cstring>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>
#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#define ARRC_HAVE_SPAN 1
#endif

namespace arrc {

// Device storage type of a host element type (bool -> uint8_t).
template <class T>
using storage_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
static_assert(sizeof(bool) == 1, "arrc stores bool as one byte");

// One subscript of a section: an index, a triplet first:last:step (last is
// inclusive, step may be negative, step != 0) or the whole axis.
struct Sel {
  enum Kind { Index, Triplet, All } kind = All;
  int64_t first = 0, last = 0, step = 1;
  Sel() = default;
  Sel(int64_t i) : kind(Index), first(i) {}  // NOLINT: implicit on purpose
  Sel(int i) : kind(Index), first(i) {}      // NOLINT
  static Sel index(int64_t i) { return Sel(i); }
  static Sel range(int64_t f, int64_t l, int64_t s = 1) {
    Sel r;
    r.kind = Triplet;
    r.first = f;
    r.last = l;
    r.step = s;
    return r;
  }
  static Sel all() { return Sel(); }
};

namespace detail {
// Strided device copy between two views of equal shape (any rank), by a
// cached kernel; contiguous-to-contiguous uses clEnqueueCopyBuffer.
void strided_copy(ContextImpl& c, size_t elem_size, int rank, const int64_t* shape,
                  cl_mem src, const int64_t* src_w, cl_mem dst, const int64_t* dst_w);
// Row-major host <-> view transfers (blocking).
void read_view(ContextImpl& c, size_t elem_size, int rank, const int64_t* shape, cl_mem src,
               const int64_t* w, void* dst);
void write_view(ContextImpl& c, size_t elem_size, int rank, const int64_t* shape, cl_mem dst,
                const int64_t* w, const void* src);
BufferPtr alloc(ContextImpl& c, const std::shared_ptr<ContextImpl>& owner, size_t bytes);
// Advice for a fresh host allocation about to be filled (huge pages on
// Linux for large ones: fewer first-touch page faults).
void advise_host_buffer(void* p, size_t bytes);
void fill_zero(ContextImpl& c, cl_mem m, size_t off, size_t bytes);
// Computes the count of a triplet and checks its bounds (throws arrc::Error
// "section bound ..." naming pos).
int64_t triplet_count(const Sel& s, int64_t extent, int axis, const std::string& pos);
}  // namespace detail

template <class T, int D>
class Array {
  static_assert(D >= 1, "arrc arrays have rank 1 or more");

public:
  using value_type = T;
  using storage_type = storage_t<T>;
  using shape_type = std::array<int64_t, D>;
  using weights_type = std::array<int64_t, D + 1>;
  static constexpr int rank = D;

  Array() { shape_.fill(0); weights_.fill(0); }
  Array(const Array&) = default;
  Array& operator=(const Array&) = default;
  // A moved-from array is empty (shape 0), as a default-constructed one.
  Array(Array&& o) noexcept : buf_(std::move(o.buf_)), shape_(o.shape_), weights_(o.weights_) {
    o.shape_.fill(0);
    o.weights_.fill(0);
  }
  Array& operator=(Array&& o) noexcept {
    if (this != &o) {
      buf_ = std::move(o.buf_);
      shape_ = o.shape_;
      weights_ = o.weights_;
      o.shape_.fill(0);
      o.weights_.fill(0);
    }
    return *this;
  }
  // A view of an existing buffer with explicit weights (last = offset).
  Array(BufferPtr buf, const shape_type& shape, const weights_type& weights)
      : buf_(std::move(buf)), shape_(shape), weights_(weights) {}
  // A contiguous row-major array occupying `buf` from element 0.
  Array(BufferPtr buf, const shape_type& shape)
      : buf_(std::move(buf)), shape_(shape), weights_(row_major(shape)) {}

  // Uninitialised contiguous row-major array.
  static Array alloc(Context& ctx, const shape_type& shape) {
    check_shape(shape);
    return Array(ctx.alloc(count(shape) * sizeof(storage_type)), shape);
  }
  static Array zeros(Context& ctx, const shape_type& shape) {
    Array a = alloc(ctx, shape);
    ctx.fill_zero(a.buffer(), 0, a.size() * sizeof(storage_type));
    return a;
  }
  // Copies size(shape) row-major elements from host memory.
  static Array from(Context& ctx, const T* data, const shape_type& shape) {
    Array a = alloc(ctx, shape);
    if (!data && a.size() > 0) throw null_host_data("Array::from", a.size());
    ctx.write(a.buffer(), 0, a.size() * sizeof(storage_type), data);
    return a;
  }
  static Array from(Context& ctx, const std::vector<T>& v, const shape_type& shape) {
    return from_range(ctx, v, shape);
  }
  // Rank-1 convenience: shape = {v.size()}.
  template <int E = D, class = std::enable_if_t<E == 1>>
  static Array from(Context& ctx, const std::vector<T>& v) {
    return from(ctx, v, shape_type{static_cast<int64_t>(v.size())});
  }
#ifdef ARRC_HAVE_SPAN
  // From a std::span of row-major host elements (C++20 builds).
  static Array from(Context& ctx, std::span<const T> s, const shape_type& shape) {
    return from_range(ctx, s, shape);
  }
  template <int E = D, class = std::enable_if_t<E == 1>>
  static Array from(Context& ctx, std::span<const T> s) {
    return from(ctx, s, shape_type{static_cast<int64_t>(s.size())});
  }
#endif

  // --- accessors (what generated code passes to kernels) ---------------------
  cl_mem buffer() const { return buf_ ? buf_->mem() : nullptr; }
  const BufferPtr& buffer_ptr() const { return buf_; }
  const shape_type& shape() const { return shape_; }
  int64_t shape(int k) const { return shape_[k]; }
  int64_t size(int k) const { return shape_[k]; }  // A.size(k) of the language
  int64_t size() const { return count(shape_); }   // number of elements
  const weights_type& weights() const { return weights_; }
  int64_t weight(int k) const { return weights_[k]; }
  int64_t offset() const { return weights_[D]; }
  bool empty() const { return size() == 0; }
  // Row-major dense layout (any offset); axes of extent 1 may have any weight.
  bool is_contiguous() const {
    if (size() <= 1) return true;
    auto rm = row_major(shape_);
    for (int k = 0; k < D; ++k)
      if (shape_[k] > 1 && weights_[k] != rm[k]) return false;
    return true;
  }

  // --- host transfers (row-major order even for views) ----------------------
  // Reads return with the data on the host; writes (from, copy_from) return
  // once the host data may be reused. Large transfers to a discrete GPU go
  // through pinned chunks (docs/runtime.md, "Transfers").
  std::vector<T> to_vector() const {
    std::vector<storage_type> v;
    v.reserve(static_cast<size_t>(size()));
    detail::advise_host_buffer(v.data(), static_cast<size_t>(size()) * sizeof(storage_type));
    v.resize(static_cast<size_t>(size()));
    copy_to_storage(v.data());
    if constexpr (std::is_same_v<T, bool>) {
      return std::vector<bool>(v.begin(), v.end());
    } else {
      return v;
    }
  }
  void copy_to(T* dst) const {
    if (!dst && size() > 0) throw null_host_data("Array::copy_to", size());
    copy_to_storage(reinterpret_cast<storage_type*>(dst));
  }
  // Writes row-major host data into this array (through the view's weights).
  void copy_from(const T* src) {
    if (size() == 0) return;
    if (!src) throw null_host_data("Array::copy_from", size());
    detail::write_view(buf_->owner(), sizeof(storage_type), D, shape_.data(), buffer(),
                       weights_.data(), src);
  }
  // Device copy of `src` (same shape) into this array (through both views).
  void assign(const Array& src) {
    if (src.shape_ != shape_) {
      for (int k = 0; k < D; ++k)
        if (src.shape_[k] != shape_[k]) throw shape_error("", shape_[k], src.shape_[k], k);
    }
    if (size() == 0) return;
    detail::strided_copy(buf_->owner(), sizeof(storage_type), D, shape_.data(), src.buffer(),
                         src.weights_.data(), buffer(), weights_.data());
  }
  // Contiguous row-major copy (or *this when already contiguous with offset 0).
  Array contiguous() const {
    if (is_contiguous() && offset() == 0) return *this;
    Array out(detail::alloc(buf_->owner(), buf_->owner_ptr(),
                            static_cast<size_t>(size()) * sizeof(storage_type)),
              shape_);
    if (size() > 0)
      detail::strided_copy(buf_->owner(), sizeof(storage_type), D, shape_.data(), buffer(),
                           weights_.data(), out.buffer(), out.weights_.data());
    return out;
  }
  Array contiguous(Context&) const { return contiguous(); }
  // A new array with a copy of the data (never shares the buffer).
  Array clone() const {
    if (!buf_) return *this;  // empty (default-constructed or moved from)
    Array out(detail::alloc(buf_->owner(), buf_->owner_ptr(),
                            static_cast<size_t>(size()) * sizeof(storage_type)),
              shape_);
    if (size() > 0)
      detail::strided_copy(buf_->owner(), sizeof(storage_type), D, shape_.data(), buffer(),
                           weights_.data(), out.buffer(), out.weights_.data());
    return out;
  }

  // --- views (no copy) --------------------------------------------------------
  // Section with one Sel per axis; R = number of non-index subscripts (checked).
  // Out-of-range indices/bounds throw arrc::Error naming `pos` ("file:line:col").
  template <int R>
  Array<T, R> section(const std::array<Sel, D>& sel, const std::string& pos = {}) const {
    std::array<int64_t, R> shape{};
    std::array<int64_t, R + 1> w{};
    int64_t off = offset();
    int r = 0;
    for (int k = 0; k < D; ++k) {
      const Sel& s = sel[k];
      if (s.kind == Sel::Index) {
        if (s.first < 0 || s.first >= shape_[k]) throw bounds_error(pos, s.first, shape_[k], k);
        off += s.first * weights_[k];
      } else {
        if (r >= R) throw Error("section: result rank larger than " + std::to_string(R));
        int64_t n = s.kind == Sel::All ? shape_[k] : detail::triplet_count(s, shape_[k], k, pos);
        int64_t first = s.kind == Sel::All ? 0 : s.first;
        int64_t step = s.kind == Sel::All ? 1 : s.step;
        shape[r] = n;
        w[r] = weights_[k] * step;
        if (n > 0) off += first * weights_[k];
        ++r;
      }
    }
    if (r != R) throw Error("section: result rank " + std::to_string(r) + " != " + std::to_string(R));
    w[R] = off;
    return Array<T, R>(buf_, shape, w);
  }
  // A[..., i, ...] on one axis: rank D-1.
  template <int E = D, class = std::enable_if_t<(E > 1)>>
  Array<T, D - 1> index(int axis, int64_t i, const std::string& pos = {}) const {
    if (i < 0 || i >= shape_[axis]) throw bounds_error(pos, i, shape_[axis], axis);
    std::array<int64_t, D - 1> s{};
    std::array<int64_t, D> w{};
    for (int k = 0, r = 0; k < D; ++k) {
      if (k == axis) continue;
      s[r] = shape_[k];
      w[r] = weights_[k];
      ++r;
    }
    w[D - 1] = offset() + i * weights_[axis];
    return Array<T, D - 1>(buf_, s, w);
  }
  // A[..., first:last:step, ...] on one axis (last inclusive).
  Array slice(int axis, int64_t first, int64_t last, int64_t step = 1,
              const std::string& pos = {}) const {
    Sel s = Sel::range(first, last, step);
    int64_t n = detail::triplet_count(s, shape_[axis], axis, pos);
    Array a = *this;
    a.shape_[axis] = n;
    a.weights_[axis] = weights_[axis] * step;
    if (n > 0) a.weights_[D] += first * weights_[axis];
    return a;
  }
  // Reverses the order of the axes (for D = 2 the usual transpose).
  Array transpose() const {
    Array a = *this;
    for (int k = 0; k < D; ++k) {
      a.shape_[k] = shape_[D - 1 - k];
      a.weights_[k] = weights_[D - 1 - k];
    }
    return a;
  }
  // result axis k = this axis perm[k].
  Array permute(const std::array<int, D>& perm) const {
    Array a = *this;
    for (int k = 0; k < D; ++k) {
      a.shape_[k] = shape_[perm[k]];
      a.weights_[k] = weights_[perm[k]];
    }
    return a;
  }
  Array reverse(int axis = 0) const {
    Array a = *this;
    if (shape_[axis] > 0) a.weights_[D] += (shape_[axis] - 1) * weights_[axis];
    a.weights_[axis] = -weights_[axis];
    return a;
  }
  // Same buffer and size, new row-major shape (requires is_contiguous()).
  template <int R>
  Array<T, R> reshape(const std::array<int64_t, R>& shape) const {
    if (!is_contiguous()) throw Error("reshape of a non-contiguous view");
    if (Array<T, R>::count(shape) != size())
      throw shape_error("", Array<T, R>::count(shape), size());
    auto w = Array<T, R>::row_major(shape);
    w[R] = offset();
    return Array<T, R>(buf_, shape, w);
  }

  static int64_t count(const shape_type& s) {
    int64_t n = 1;
    for (int64_t e : s) n *= e;
    return n;
  }
  static weights_type row_major(const shape_type& s) {
    weights_type w{};
    int64_t acc = 1;
    for (int k = D - 1; k >= 0; --k) {
      w[k] = acc;
      acc *= s[k];
    }
    w[D] = 0;
    return w;
  }

private:
  // A contiguous host range (std::vector, std::span) whose size must match
  // the shape; bool goes through bytes (std::vector<bool> has no data()).
  template <class R>
  static Array from_range(Context& ctx, const R& r, const shape_type& shape) {
    check_shape(shape);
    if (static_cast<int64_t>(r.size()) != count(shape))
      throw Error("Array::from: host data has " + std::to_string(r.size()) +
                  " elements but the shape needs " + std::to_string(count(shape)));
    if constexpr (std::is_same_v<T, bool>) {
      std::vector<uint8_t> b(r.begin(), r.end());
      Array a = alloc(ctx, shape);
      ctx.write(a.buffer(), 0, b.size(), b.data());
      return a;
    } else {
      return from(ctx, r.data(), shape);
    }
  }

  static Error null_host_data(const char* what, int64_t n) {
    return Error(std::string(what) + ": the host pointer is null but the array has " +
                 std::to_string(n) + " elements");
  }
  static void check_shape(const shape_type& s) {
    for (int k = 0; k < D; ++k)
      if (s[k] < 0) throw Error(format_error(ErrorCode::negative_size, "", s[k], 0, k));
    // an element count or byte size past 2^63 (the allocation would be asked
    // for a wrapped size)
    int64_t n = 1;
    for (int k = 0; k < D; ++k)
      if (s[k] != 0 && n > INT64_MAX / s[k]) n = -1;
      else if (n >= 0) n *= s[k];
    if (n < 0 || n > INT64_MAX / static_cast<int64_t>(sizeof(storage_type))) {
      std::string dims;
      for (int k = 0; k < D; ++k) dims += (k ? " x " : "") + std::to_string(s[k]);
      throw Error("out of device memory: an array of " + dims + " elements is larger than 2^63 bytes");
    }
  }
  void copy_to_storage(storage_type* dst) const {
    if (size() == 0) return;
    detail::read_view(buf_->owner(), sizeof(storage_type), D, shape_.data(), buffer(),
                      weights_.data(), dst);
  }

  BufferPtr buf_;
  shape_type shape_;
  weights_type weights_;
};

// The components of an array of tuples (a std::tuple of arrays, one per
// component; arrc::Array or arrc::DistArray) must have one shape: generated exports check their arguments
// with this before any kernel reads them. `what` names the argument
// ("file:line:col: the components of the array of tuples p").
template <class A, class B>
inline void check_components(const A& a, const B& b, const std::string& what) {
  static_assert(A::rank == B::rank, "components of one array of tuples have one rank");
  for (int k = 0; k < A::rank; ++k)
    if (a.shape(k) != b.shape(k))
      throw Error(what + " differ in size on axis " + std::to_string(k) + ": " +
                  std::to_string(a.shape(k)) + " vs " + std::to_string(b.shape(k)));
}

}  // namespace arrc
