// arrc runtime: primitive parallel kernels (reduce, scan, compaction, scatter,
// gather, radix sort, segmented scan/reduce, histogram, expand).
//
// Every primitive owns its schedule per device class (GPU: tiles, decoupled
// look-back, local-memory privatisation; CPU: one contiguous chunk per
// work-item) and is a kernel *template* instantiated textually from
//   - an element type  (ElemType: OpenCL C type name, size, prelude; scalars
//                       or records of scalars, see ElemType::record),
//   - an operator      (Operator: expression over `a` and `b` + neutral
//                       element, optionally reading run-time arguments),
//   - a fused producer (Fused: OpenCL C functions + extra kernel arguments).
// The program built from each distinct text is cached per context (and on
// disk), so calling a primitive again with the same pieces only launches.
// Generated code (codegen/) calls these with the SOAC's body fused in.
//
// Fused producers. The extra kernel arguments of a Fused are appended to the
// parameter list of every kernel of the primitive that calls the producer.
// The source sees two macros:
//   ARRC_PARAMS  ->  ", <type1> <name1>, <type2> <name2>, ..."
//   ARRC_ARGS    ->  ", <name1>, <name2>, ..."
// and each function it defines must take ARRC_PARAMS as trailing parameters,
// e.g. for reduce(map(f, xs)) with f(x) = x*x:
//   Fused in;
//   in.source = "float arrc_load(long i ARRC_PARAMS) { float x = xs[i]; return x*x; }";
//   in.args   = {KernelArg::buffer("__global const float*", "xs", xs_mem)};
// The macro T is the element type name; arrc_op(a, b) and ARRC_NE are
// available. Which functions a primitive calls is listed at each primitive.
// Producers must be pure (they may be called more than once per index).
//
// Operators with arguments. Operator::args are kernel arguments the
// operator's expression, its prelude and its neutral element may read by
// name (e.g. a neutral element known only at run time). They reach every
// function that combines elements through ARRC_OP_PARAMS / ARRC_OP_ARGS
// (empty when there are none); arrc_op(a, b) and ARRC_NE are macros that
// pass them on. Names must differ from the Fused argument names.
//
// Output. Results are written to a caller-provided buffer (cl_mem + element
// offset). Every primitive that writes elements also accepts out == nullptr,
// in which case the source must define the store hook
//   void arrc_store(long i, T v ARRC_PARAMS)
// called with the element's index (without the offset): e.g. to write the
// fields of a record into separate arrays (structure of arrays).
//
// All primitives enqueue on the context's in-order queue and do not block,
// except those returning a count to the host (compact, segmented_reduce with
// flags, expand_offsets with read_total, expand_compact_count), which read
// 8 bytes back.
#pragma once

#include <arrc/array.h>
#include <arrc/context.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

namespace arrc {

// An element type as OpenCL C sees it. `prelude` declares non-scalar types
// (e.g. "typedef struct { float v; long i; } arrc_vi;" for argmin) and must
// be idempotent-safe: it is emitted once per program. `size` must equal the
// device sizeof (mind OpenCL struct alignment).
//
// Records (tuples, stored as structure of arrays by generated code) are
// ElemType::record(fields, name): a struct with members f0, f1, ... in
// order, laid out as OpenCL C lays it out (each member at a multiple of its
// size, the whole a multiple of the largest member).
struct ElemType {
  std::string name;
  size_t size = 0;
  std::string prelude;
  size_t align = 0;              // 0: the size (scalars)
  std::vector<ElemType> fields = {};  // records: the scalar members f0, f1, ...
  template <class T>
  static ElemType of();
  static ElemType scalar(std::string name, size_t size) {
    ElemType t;
    t.name = std::move(name);
    t.size = size;
    return t;
  }
  static ElemType record(const std::vector<ElemType>& fields, const std::string& name);
  size_t alignment() const { return align ? align : size; }
  bool is_record() const { return !fields.empty(); }
};
template <> inline ElemType ElemType::of<int32_t>() { return scalar("int", 4); }
template <> inline ElemType ElemType::of<uint32_t>() { return scalar("uint", 4); }
template <> inline ElemType ElemType::of<int64_t>() { return scalar("long", 8); }
template <> inline ElemType ElemType::of<uint64_t>() { return scalar("ulong", 8); }
template <> inline ElemType ElemType::of<float>() { return scalar("float", 4); }
template <> inline ElemType ElemType::of<double>() { return scalar("double", 8); }
template <> inline ElemType ElemType::of<uint8_t>() { return scalar("uchar", 1); }
template <> inline ElemType ElemType::of<bool>() { return scalar("uchar", 1); }

// One extra kernel argument of a fused producer: OpenCL C parameter type and
// name, and its value (a cl_mem or the bytes of a scalar/struct).
struct KernelArg {
  std::string type;
  std::string name;
  cl_mem mem = nullptr;
  bool is_mem = false;
  unsigned char bytes[64] = {};
  size_t size = 0;

  static KernelArg buffer(std::string type, std::string name, cl_mem m) {
    KernelArg a;
    a.type = std::move(type);
    a.name = std::move(name);
    a.mem = m;
    a.is_mem = true;
    return a;
  }
  template <class S>
  static KernelArg scalar(std::string type, std::string name, const S& v) {
    static_assert(std::is_trivially_copyable_v<S> && sizeof(S) <= 64, "scalar argument");
    KernelArg a;
    a.type = std::move(type);
    a.name = std::move(name);
    std::memcpy(a.bytes, &v, sizeof(S));
    a.size = sizeof(S);
    return a;
  }
  // The error buffer, as `__global long* arrc_err` (for arrc_raise_*).
  static KernelArg error_buffer(const Context& ctx) {
    return buffer("__global long*", "arrc_err", ctx.error_buffer());
  }
};

// An associative operator `a op b` as an OpenCL C expression over `a` and `b`
// (of type T), its neutral element as OpenCL C expression, and optional helper
// functions (prelude, may use T). `commutative` lets reduce use its fastest
// (unordered) schedule; kind != Custom lets histogram use atomics.
//
// `args`: run-time values the expression, prelude and neutral may read (see
// "Operators with arguments" above). `fields`: for a record type whose
// operator combines each member on its own, the operator of member k (over
// that member's type); histogram then updates members one by one.
struct Operator {
  enum Kind { Custom, Add, Mul, Min, Max };
  std::string expr;
  std::string neutral;
  bool commutative = false;
  Kind kind = Custom;
  std::string prelude;
  std::vector<KernelArg> args = {};
  std::vector<Operator> fields = {};

  static Operator custom(std::string expr, std::string neutral, bool commutative = false,
                         std::string prelude = {}) {
    Operator o;
    o.expr = std::move(expr);
    o.neutral = std::move(neutral);
    o.commutative = commutative;
    o.prelude = std::move(prelude);
    return o;
  }
  static Operator make(std::string expr, std::string neutral, Kind kind) {
    Operator o;
    o.expr = std::move(expr);
    o.neutral = std::move(neutral);
    o.commutative = true;
    o.kind = kind;
    return o;
  }
  static Operator add() { return make("a + b", "(T)0", Add); }
  static Operator mul() { return make("a * b", "(T)1", Mul); }
  // min/max: neutral is the type's largest/smallest value (INFINITY for floats).
  static Operator min(const ElemType& t) { return make("min(a, b)", max_value(t), Min); }
  static Operator max(const ElemType& t) { return make("max(a, b)", min_value(t), Max); }
  static std::string max_value(const ElemType& t);
  static std::string min_value(const ElemType& t);
};

// OpenCL C source of fused functions + the extra arguments they read.
struct Fused {
  std::string source;
  std::vector<KernelArg> args = {};
  Fused& operator+=(const Fused& o) {
    source += "\n" + o.source;
    args.insert(args.end(), o.args.begin(), o.args.end());
    return *this;
  }
};

// A producer reading a (strided) buffer:
//   T <fname>(long i ARRC_PARAMS) { return <arg>[<arg>_off + i * <arg>_stride]; }
// with arguments <arg> (__global const T*), <arg>_off and <arg>_stride (long).
Fused buffer_function(const std::string& fname, const ElemType& t, cl_mem buf,
                      int64_t offset = 0, int64_t stride = 1, const std::string& arg = "");
// The common case: `arrc_load` from a buffer.
inline Fused load_from(const ElemType& t, cl_mem buf, int64_t offset = 0, int64_t stride = 1) {
  return buffer_function("arrc_load", t, buf, offset, stride, "arrc_in");
}

// ---------------------------------------------------------------------------
// Untyped primitives (what generated code calls). n = number of input elements.

// out[out_index] = ne op x0 op ... op x(n-1),  x_i = arrc_load(i).
void reduce(Context& ctx, const ElemType& t, const Operator& op, int64_t n, const Fused& in,
            cl_mem out, int64_t out_index = 0);

// Inclusive: out[i] = x0 op ... op xi; exclusive: out[i] = ne op x0 op ... op x(i-1).
// Calls arrc_load(i); out == nullptr: calls arrc_store(i, v) instead.
void scan(Context& ctx, const ElemType& t, const Operator& op, int64_t n, const Fused& in,
          cl_mem out, int64_t out_offset, bool inclusive);

// Stable filter: writes x_i (= arrc_load(i)) for which arrc_keep(i, x_i) != 0
// to out[out_offset + 0 ..) (out == nullptr: arrc_store(j, x_i) for the j-th
// kept element), returns the count. Calls
//   T arrc_load(long i ARRC_PARAMS); int arrc_keep(long i, T v ARRC_PARAMS);
// If count_out is given, the count (a long) is also stored there on the device.
int64_t compact(Context& ctx, const ElemType& t, int64_t n, const Fused& in, cl_mem out,
                int64_t out_offset = 0, cl_mem count_out = nullptr);

// dest[dest_offset + j] = arrc_load(k) where j = arrc_index(k) (long), for
// k < n; j outside [0, dest_n) is ignored (arrc_load(k) is still called:
// every value is evaluated, as in the interpreter). Duplicate j: any one value wins.
// dest == nullptr: arrc_store(j, v) instead.
void scatter(Context& ctx, const ElemType& t, int64_t n, const Fused& in, cl_mem dest,
             int64_t dest_offset, int64_t dest_n);

// out[out_offset + k] = src[src_offset + j * src_stride], j = arrc_index(k),
// for k < n. j outside [0, src_n) raises a bounds error (position id pos_id,
// axis 0) in the error buffer; call ctx.check_errors(...) afterwards.
void gather(Context& ctx, const ElemType& t, int64_t n, const Fused& in, cl_mem src,
            int64_t src_offset, int64_t src_stride, int64_t src_n, cl_mem out,
            int64_t out_offset = 0, int32_t pos_id = -1);

// Stable LSD radix sort (8-bit digits) of n keys in place (keys from element
// 0 of the buffer), ascending. Key types: int, uint, long, ulong, float,
// double, uchar, char, short, ushort (floats in IEEE total order: -NaN
// first, then -inf, ..., -0.0 before +0.0, ..., +inf, +NaN last). values
// (optional, may be nullptr) are permuted along: any element type of size
// 1..16. n < 2^31. GPUs: one sweep per digit with decoupled look-back;
// CPUs: per-chunk passes (docs/runtime.md, "Radix sort").
void sort_pairs(Context& ctx, const ElemType& key_type, int64_t n, cl_mem keys,
                const ElemType* value_type = nullptr, cl_mem values = nullptr);

// Segmented scan: segments start where arrc_flag(i) != 0 (element 0 always
// starts one). Calls arrc_load(i), int arrc_flag(long i ARRC_PARAMS);
// out == nullptr: arrc_store(i, v).
void segmented_scan(Context& ctx, const ElemType& t, const Operator& op, int64_t n,
                    const Fused& in, cl_mem out, int64_t out_offset, bool inclusive);

// Segmented reduce with flags: one result per segment (in order) written to
// out[out_offset + s] (out == nullptr: arrc_store(s, v)); returns the number
// of segments (0 when n == 0).
int64_t segmented_reduce(Context& ctx, const ElemType& t, const Operator& op, int64_t n,
                         const Fused& in, cl_mem out, int64_t out_offset = 0);

// Segmented reduce with offsets: segment s is [offsets[s], offsets[s+1]) of
// the input (offsets: __global long, nseg + 1 entries, non-decreasing); an
// empty segment gives ne. Calls arrc_load(i).
void segmented_reduce_offsets(Context& ctx, const ElemType& t, const Operator& op, int64_t nseg,
                              cl_mem offsets, const Fused& in, cl_mem out,
                              int64_t out_offset = 0);

// Segmented scan with offsets (nseg + 1 longs, offsets[0] == 0, offsets[nseg] == n).
void segmented_scan_offsets(Context& ctx, const ElemType& t, const Operator& op, int64_t n,
                            int64_t nseg, cl_mem offsets, const Fused& in, cl_mem out,
                            int64_t out_offset, bool inclusive);

// Histogram / reduce-by-index: out[out_offset + b] = ne op (all x_i with
// arrc_bin(i) == b), 0 <= b < nbins, other bins ignored (out == nullptr:
// arrc_store(b, v)). Calls
//   long arrc_bin(long i ARRC_PARAMS); T arrc_load(long i ARRC_PARAMS);
// Any element type, records too. Schedules (docs/runtime.md, "Histogram"):
// a commutative operator is folded into private per-work-item histograms in
// local memory when the bins fit, else into per-work-group histograms in
// local memory updated atomically (4- and 8-byte elements, or records whose
// operator works member by member: Operator::fields), else by global atomic
// updates; the per-group histograms are then merged in order. A
// non-commutative operator (or an element that cannot be updated
// atomically, with too many bins) takes the exact ordered path: the
// elements are sorted by bin (stable radix sort) and each bin's elements are
// folded in index order. CPUs fold a private histogram per chunk and merge
// the chunks in order (exact for any operator). row_width >= 2 (generated
// code, a flattened producer): element i is column i % row_width of a row,
// and the bins of a row are usually a multiple of row_width plus the
// column (k-means' sums: column_bins); GPUs then give each work-item of a
// lane its own column of the lane's copy (no atomics there). Any bins stay
// right; column_bins false: bins of another form, the row width serves
// only the row hooks (CPUs).
void histogram(Context& ctx, const ElemType& t, const Operator& op, int64_t nbins, int64_t n,
               const Fused& in, cl_mem out, int64_t out_offset = 0, int64_t row_width = 0,
               bool column_bins = true);

// Several histograms filled in one pass over n items (a map whose body adds
// to histograms: generated code's MultiHist). For every i < n calls
//   void arrc_item(long i ARRC_ITEM_STAGE ARRC_HISTS ARRC_PARAMS)
// whose body adds v to bin b of histogram h with ARRC_HIST_ADD(h, b, v)
// (h a literal index into `hists`, b a long: out of range, ignored; v is
// evaluated anyway). Histogram h is written to out[out_offset ..
// out_offset + nbins): op.neutral in every bin, combined with each value
// added to it. The element types are 4- or 8-byte scalars and the
// operators commutative, without arguments: the additions are unordered
// (CPUs: private copies per chunk, folded in chunk order; GPUs: local-memory
// copies updated atomically, added into the outputs atomically).
struct HistogramOut {
  ElemType t;
  Operator op;
  int64_t nbins = 0;
  cl_mem out = nullptr;
  int64_t out_offset = 0;
};
// stage_bytes > 0 (generated code): the items read rows of matrices, that
// many bytes per item, which GPUs stage in local memory: the fused source
// then also defines
//   void arrc_stage(long first, long count, long cap, __local uchar* stg ARRC_PARAMS)
// (all work-items of a group copy the rows of items [first, first + count)),
// and arrc_item takes ARRC_ITEM_STAGE after i (those four, when
// ARRC_ITEM_STAGING is defined; nothing otherwise).
void histogram_items(Context& ctx, const std::vector<HistogramOut>& hists, int64_t n, const Fused& in,
                     size_t stage_bytes = 0);

// Expand (flattening by expansion): for i < n, sizes s_i = arrc_size(i)
// (long; negative counts as 0); the expanded sequence has sum(s_i) elements,
// element j = arrc_get(i, k) where i is the source whose range holds j and k
// its place in that range. Calls long arrc_size(long i ARRC_PARAMS) and
// T arrc_get(long i, long k ARRC_PARAMS). Three steps, so that consumers of
// the expanded sequence need not materialise it:
//   expand_offsets  -- inclusive scan of the sizes (ends), optionally the total
//   expand_write / expand_reduce / expand_compact_* -- walk the sequence
// Each walk is load-balanced: a work-item takes a run of consecutive
// elements, finds the source of the first by binary search and steps on.
struct ExpandOffsets {
  BufferPtr ends;      // n ends (end_bytes each): inclusive scan of the sizes
  int64_t n = 0;       // number of sources
  int64_t total = -1;  // sum of the sizes (-1: not read back)
  int end_bytes = 8;   // 8: longs; 4: uints, where the total read back is below 2^32
};
// (t: the element type of the walk that follows, so one Fused may serve both.)
ExpandOffsets expand_offsets(Context& ctx, const ElemType& t, int64_t n, const Fused& in,
                             bool read_total = true);
// out[out_offset + j] = element j (out == nullptr: arrc_store(j, v)).
// Needs the total (read_total).
void expand_write(Context& ctx, const ElemType& t, const ExpandOffsets& e, const Fused& in,
                  cl_mem out, int64_t out_offset = 0);
// out[out_index] = ne op e0 op e1 ... over the expanded elements, in order.
void expand_reduce(Context& ctx, const ElemType& t, const Operator& op, const ExpandOffsets& e,
                   const Fused& in, cl_mem out, int64_t out_index = 0);
// Stable compaction of the expanded elements e_j with arrc_keep(j, e_j) != 0
// (int arrc_keep(long j, T v ARRC_PARAMS)). Two calls: the count (read back;
// the returned plan holds per-chunk offsets), then, once the caller has
// allocated the output, the writing (out == nullptr: arrc_store(r, v) for the
// r-th kept element). The Fused of the second call is the first's plus the
// store hook's arguments.
struct ExpandCompaction {
  BufferPtr offsets;  // per-chunk exclusive offsets of the kept elements
  int64_t chunks = 0, chunk = 0;
  int64_t count = 0;
};
ExpandCompaction expand_compact_count(Context& ctx, const ElemType& t, const ExpandOffsets& e,
                                      const Fused& in);
void expand_compact_write(Context& ctx, const ElemType& t, const ExpandOffsets& e,
                          const ExpandCompaction& c, const Fused& in, cl_mem out,
                          int64_t out_offset = 0);
// All in one: scan of sizes, total read back, then expand_write into a new
// buffer.
struct Expanded {
  BufferPtr data;     // count elements of t
  int64_t count = 0;
  BufferPtr ends;     // n ends (end_bytes each): inclusive scan of the sizes (segment ends)
  int end_bytes = 8;  // 4: uints (the count is below 2^32), else longs
};
Expanded expand(Context& ctx, const ElemType& t, int64_t n, const Fused& in);

// Fills out[out_offset + i] = value (an OpenCL C expression of type T) for i < n.
void fill(Context& ctx, const ElemType& t, int64_t n, const std::string& value, cl_mem out,
          int64_t out_offset = 0);

// ---------------------------------------------------------------------------
// Typed convenience wrappers over rank-1 arrays (views are fine: they read
// through offset and stride). Results are new contiguous arrays.

namespace detail {
template <class T>
Fused load_array(const Array<T, 1>& a, const std::string& fname = "arrc_load",
                 const std::string& arg = "arrc_in") {
  return buffer_function(fname, ElemType::of<T>(), a.buffer(), a.offset(), a.weight(0), arg);
}
}  // namespace detail

template <class T>
T reduce(Context& ctx, const Array<T, 1>& xs, const Operator& op) {
  auto out = ctx.alloc(sizeof(storage_t<T>));
  reduce(ctx, ElemType::of<T>(), op, xs.size(), detail::load_array(xs), out->mem(), 0);
  storage_t<T> r{};
  ctx.read(out->mem(), 0, sizeof r, &r);
  return static_cast<T>(r);
}

template <class T>
Array<T, 1> scan(Context& ctx, const Array<T, 1>& xs, const Operator& op, bool inclusive = true) {
  auto out = Array<T, 1>::alloc(ctx, {xs.size()});
  scan(ctx, ElemType::of<T>(), op, xs.size(), detail::load_array(xs), out.buffer(), 0, inclusive);
  return out;
}

// keep: OpenCL C expression over `v` (the element) and `i` (its index).
template <class T>
Array<T, 1> filter(Context& ctx, const Array<T, 1>& xs, const std::string& keep) {
  Fused in = detail::load_array(xs);
  in.source += "\nint arrc_keep(long i, T v ARRC_PARAMS) { return (" + keep + "); }\n";
  auto out = Array<T, 1>::alloc(ctx, {xs.size()});
  int64_t c = compact(ctx, ElemType::of<T>(), xs.size(), in, out.buffer(), 0);
  return Array<T, 1>(out.buffer_ptr(), {c});
}

template <class T, class I>
Array<T, 1> gather(Context& ctx, const Array<T, 1>& xs, const Array<I, 1>& is, int32_t pos_id = -1) {
  auto out = Array<T, 1>::alloc(ctx, {is.size()});
  gather(ctx, ElemType::of<T>(), is.size(), detail::load_array(is, "arrc_index", "arrc_idx"),
         xs.buffer(), xs.offset(), xs.weight(0), xs.size(), out.buffer(), 0, pos_id);
  return out;
}

// dest (contiguous or not) is updated in place: dest[is[k]] = vs[k].
template <class T, class I>
void scatter(Context& ctx, Array<T, 1>& dest, const Array<I, 1>& is, const Array<T, 1>& vs) {
  if (is.size() != vs.size()) throw shape_error("", is.size(), vs.size());
  if (!dest.is_contiguous()) throw Error("scatter into a strided view is not supported");
  Fused in = detail::load_array(is, "arrc_index", "arrc_idx");
  in += detail::load_array(vs);
  scatter(ctx, ElemType::of<T>(), is.size(), in, dest.buffer(), dest.offset(), dest.size());
}

template <class T, class I>
Array<T, 1> histogram(Context& ctx, const Operator& op, int64_t nbins, const Array<I, 1>& is,
                      const Array<T, 1>& vs) {
  if (is.size() != vs.size()) throw shape_error("", is.size(), vs.size());
  Fused in = detail::load_array(is, "arrc_bin", "arrc_idx");
  in += detail::load_array(vs);
  auto out = Array<T, 1>::alloc(ctx, {nbins});
  histogram(ctx, ElemType::of<T>(), op, nbins, is.size(), in, out.buffer(), 0);
  return out;
}

// Sorts a contiguous array in place (stable, ascending).
template <class K>
void sort(Context& ctx, Array<K, 1>& keys) {
  if (!keys.is_contiguous() || keys.offset() != 0) keys = keys.contiguous();
  sort_pairs(ctx, ElemType::of<K>(), keys.size(), keys.buffer());
}
template <class K, class V>
void sort_by_key(Context& ctx, Array<K, 1>& keys, Array<V, 1>& values) {
  if (keys.size() != values.size()) throw shape_error("", keys.size(), values.size());
  if (!keys.is_contiguous() || keys.offset() != 0) keys = keys.contiguous();
  if (!values.is_contiguous() || values.offset() != 0) values = values.contiguous();
  ElemType vt = ElemType::of<V>();
  sort_pairs(ctx, ElemType::of<K>(), keys.size(), keys.buffer(), &vt, values.buffer());
}

// flags: nonzero starts a segment.
template <class T, class F>
Array<T, 1> segmented_scan(Context& ctx, const Operator& op, const Array<F, 1>& flags,
                           const Array<T, 1>& xs, bool inclusive = true) {
  if (flags.size() != xs.size()) throw shape_error("", flags.size(), xs.size());
  Fused in = detail::load_array(xs);
  Fused f = detail::load_array(flags, "arrc_flag_v", "arrc_flags");
  f.source += "\nint arrc_flag(long i ARRC_PARAMS) { return arrc_flag_v(i ARRC_ARGS) != 0; }\n";
  in += f;
  auto out = Array<T, 1>::alloc(ctx, {xs.size()});
  segmented_scan(ctx, ElemType::of<T>(), op, xs.size(), in, out.buffer(), 0, inclusive);
  return out;
}

template <class T, class F>
Array<T, 1> segmented_reduce(Context& ctx, const Operator& op, const Array<F, 1>& flags,
                             const Array<T, 1>& xs) {
  if (flags.size() != xs.size()) throw shape_error("", flags.size(), xs.size());
  Fused in = detail::load_array(xs);
  Fused f = detail::load_array(flags, "arrc_flag_v", "arrc_flags");
  f.source += "\nint arrc_flag(long i ARRC_PARAMS) { return arrc_flag_v(i ARRC_ARGS) != 0; }\n";
  in += f;
  auto out = Array<T, 1>::alloc(ctx, {xs.size()});
  int64_t c = segmented_reduce(ctx, ElemType::of<T>(), op, xs.size(), in, out.buffer(), 0);
  return Array<T, 1>(out.buffer_ptr(), {c});
}

}  // namespace arrc
