// Private: OpenCL C kernel templates of the primitives (see primitives.cpp).
#pragma once

namespace arrc::detail {

// NVIDIA warp primitives through inline PTX (the NVIDIA OpenCL compiler
// accepts `asm`; OpenCL 1.2 has no sub-group functions there). Included, with
// `#define ARRC_NV 1`, only for devices of compute capability >= 7, where
// the .sync forms exist and a warp is 32 consecutive local ids.
inline const char* kNvWarp = R"CLC(
#define ARRC_NV 1
inline uint arrc_nv_shup(uint x, uint d) {
  uint r; asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(x), "r"(d)); return r;
}
inline uint arrc_nv_shdown(uint x, uint d) {
  uint r; asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x), "r"(d)); return r;
}
inline uint arrc_nv_shidx(uint x, uint src) {
  uint r; asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x), "r"(src)); return r;
}
inline uint arrc_nv_ballot(int p) {
  uint r;
  asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }" : "=r"(r) : "r"(p));
  return r;
}
)CLC";

// Work-group helpers instantiated for a scan type S with operator OP and
// neutral NE; placeholders $S $OP $NE $N (name suffix).
inline const char* kWgHelpers = R"CLC(
#ifndef ARRC_SH
#define ARRC_SH (WG > 96 ? WG : 96)
#endif
#ifndef ARRC_LBM
#define ARRC_LBM 1
#endif
#ifndef ARRC_NV_GROUP_ORDER
#define ARRC_NV_GROUP_ORDER 0
#endif
#define ARRC_WORDS_$N ((int)((sizeof($S) + 3) / 4))
typedef union { $S s; uint w[(sizeof($S) + 3) / 4]; } arrc_words_$N;
#ifdef ARRC_NV
// Shuffles of an S, one 32-bit word at a time.
#define ARRC_SHFL_$N(name, prim)                                         \
  inline $S name($S v, uint a) {                                         \
    arrc_words_$N u;                                                     \
    u.s = v;                                                             \
    for (int i = 0; i < ARRC_WORDS_$N; ++i) u.w[i] = prim(u.w[i], a);    \
    return u.s;                                                          \
  }
ARRC_SHFL_$N(arrc_shup_$N, arrc_nv_shup)
ARRC_SHFL_$N(arrc_shdown_$N, arrc_nv_shdown)
ARRC_SHFL_$N(arrc_shidx_$N, arrc_nv_shidx)
// Inclusive scan across the 32 lanes of a warp.
inline $S arrc_warp_scan_$N($S x, int lane ARRC_OP_PARAMS) {
  for (uint d = 1; d < 32; d <<= 1) {
    $S y = arrc_shup_$N(x, d);
    if (lane >= d) x = $OP(y, x);
  }
  return x;
}
// Exclusive work-group scan of one value per work-item (NE at local id 0);
// *total gets the sum of all. Warp scans by shuffles, then one warp scans
// the warp totals: two barriers. sh: ARRC_SH elements, not written again
// by the caller before its next barrier.
inline $S arrc_wg_scan_$N($S x, __local $S* sh, $S* total ARRC_OP_PARAMS) {
  int lid = get_local_id(0), lane = lid & 31, w = lid >> 5;
  $S y = arrc_warp_scan_$N(x, lane ARRC_OP_ARGS);
  $S e = arrc_shup_$N(y, 1);
  if (lane == 31) sh[w] = y;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (w == 0) {
    $S s = lane < WG / 32 ? sh[lane] : $NE;
    sh[32 + lane] = arrc_warp_scan_$N(s, lane ARRC_OP_ARGS);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  *total = sh[32 + WG / 32 - 1];
  $S wp = w > 0 ? sh[32 + w - 1] : $NE;
  return lane > 0 ? $OP(wp, e) : wp;
}
#else
// Exclusive work-group scan (Kogge-Stone over local memory), as above.
// sh: ARRC_SH elements.
inline $S arrc_wg_scan_$N($S x, __local $S* sh, $S* total ARRC_OP_PARAMS) {
  int lid = get_local_id(0);
  sh[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < WG; off <<= 1) {
    $S y = x;
    if (lid >= off) y = sh[lid - off];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= off) { x = $OP(y, x); sh[lid] = x; }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *total = sh[WG - 1];
  return lid > 0 ? sh[lid - 1] : $NE;
}
#endif
// Decoupled look-back (single pass chained scan). Tiles take ids in launch
// order from an atomic counter (ctl[0], which the last tile resets to 0 for
// the next launch), so every tile a tile waits for has started. Each tile
// publishes its aggregate (aggs) and later its inclusive prefix (incs) as
// 32-bit words, each stored as one 64-bit word (epoch << 32 | word);
// readers wait until every word they need carries this launch's epoch, so
// no cross-work-group fence is needed (OpenCL 1.2 mem_fence does not order
// globally across work-groups; NVIDIA compiles it to membar.cta), and the
// buffers need no clearing between launches: the host gives each launch a
// new epoch (see ScanState in primitives.cpp).
inline void arrc_publish_$N(__global ulong* buf, int t, $S v, uint epoch) {
  arrc_words_$N u;
  u.s = v;
  for (int i = 0; i < ARRC_WORDS_$N; ++i)
    atom_xchg(&buf[(long)t * ARRC_WORDS_$N + i], ((ulong)epoch << 32) | (ulong)u.w[i]);
}
#ifdef ARRC_NV
// Aligned 64-bit volatile loads are single-copy atomic and read from L2.
#define ARRC_PEEK(p) (*(volatile __global ulong*)(p))
#else
#define ARRC_PEEK(p) atom_add((p), 0ul)
#endif
#define ARRC_TAGGED(x, epoch) ((uint)((x) >> 32) == (epoch))
// Words 1.. of tile k's published value (word 0 given), waiting for each.
inline $S arrc_tile_value_$N(__global ulong* buf, int k, uint w0, uint epoch) {
  arrc_words_$N u;
  u.w[0] = w0;
  for (int i = 1; i < ARRC_WORDS_$N; ++i) {
    ulong x;
    do { x = ARRC_PEEK(&buf[(long)k * ARRC_WORDS_$N + i]); } while (!ARRC_TAGGED(x, epoch));
    u.w[i] = (uint)x;
  }
  return u.s;
}
#ifdef ARRC_NV
// Run by warp 0 only: publishes tile t's aggregate `total`, then returns
// the exclusive prefix of tile t in every lane, after publishing tile t's
// inclusive prefix. The look-back window is 32 * ARRC_LBM tiles, lane l
// taking tiles k0 - l - 32m; all status words of the window are loaded at
// once. Each 32-tile chunk, nearest first, is combined up to the nearest
// inclusive prefix by a shuffle tree.
inline $S arrc_warp_lookback_$N(int t, $S total, __global ulong* aggs, __global ulong* incs,
                                uint epoch ARRC_OP_PARAMS) {
  int lid = get_local_id(0);
  if (t == 0) {
    if (lid == 0) arrc_publish_$N(incs, 0, total, epoch);
    return $NE;
  }
  if (lid == 0) arrc_publish_$N(aggs, t, total, epoch);
  $S ex = $NE;
  for (int k0 = t - 1;; k0 -= 32 * ARRC_LBM) {
    ulong xi[ARRC_LBM], xa[ARRC_LBM];
#pragma unroll
    for (int m = 0; m < ARRC_LBM; ++m) {
      int k = k0 - 32 * m - lid;
      // before tile 0: as if an inclusive prefix NE
      xi[m] = k >= 0 ? ARRC_PEEK(&incs[(long)k * ARRC_WORDS_$N]) : ((ulong)epoch << 32);
      xa[m] = k >= 0 ? ARRC_PEEK(&aggs[(long)k * ARRC_WORDS_$N]) : 0;
    }
    int done = 0;
#pragma unroll
    for (int m = 0; m < ARRC_LBM; ++m) {
      if (done) break;
      int k = k0 - 32 * m - lid;
      while (!ARRC_TAGGED(xi[m], epoch) && !ARRC_TAGGED(xa[m], epoch)) {
        xi[m] = ARRC_PEEK(&incs[(long)k * ARRC_WORDS_$N]);
        xa[m] = ARRC_PEEK(&aggs[(long)k * ARRC_WORDS_$N]);
      }
      int inclusive = ARRC_TAGGED(xi[m], epoch);
      $S v = k < 0 ? $NE
                   : arrc_tile_value_$N(inclusive ? incs : aggs, k,
                                        (uint)(inclusive ? xi[m] : xa[m]), epoch);
      uint inc = arrc_nv_ballot(inclusive);
      // lanes 0..last (tiles k..k-last) belong to the window
      int last = inc ? 31 - clz(inc & (0u - inc)) : 31;
      for (uint d = 1; d < 32; d <<= 1) {
        $S y = arrc_shdown_$N(v, d);
        if (lid + d <= last) v = $OP(y, v);
      }
      ex = $OP(v, ex);
      done = inc != 0;
    }
    if (done) break;
  }
  if (lid == 0) arrc_publish_$N(incs, t, $OP(ex, total), epoch);
  return arrc_shidx_$N(ex, 0);
}
// Tile scan: returns OP(prefix of all earlier tiles, exclusive work-group
// scan of x) in every work-item, with *prefix and *total (this tile's sum).
// Warp 0 scans the warp totals and at once looks back, so the aggregate is
// published as early as possible: two barriers in all. lv, lf, lctl, lex:
// the portable version's scratch, unused here.
inline $S arrc_tile_scan_$N($S x, int t, __global ulong* aggs, __global ulong* incs, uint epoch,
                            __local $S* sh, __local $S* lv, __local int* lf, __local int* lctl,
                            __local $S* lex, $S* prefix, $S* total ARRC_OP_PARAMS) {
  int lid = get_local_id(0), lane = lid & 31, w = lid >> 5;
  $S y = arrc_warp_scan_$N(x, lane ARRC_OP_ARGS);
  $S e = arrc_shup_$N(y, 1);
  if (lane == 31) sh[w] = y;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (w == 0) {
    $S s = arrc_warp_scan_$N(lane < WG / 32 ? sh[lane] : $NE, lane ARRC_OP_ARGS);
    $S tot = arrc_shidx_$N(s, WG / 32 - 1);
    $S p = arrc_warp_lookback_$N(t, tot, aggs, incs, epoch ARRC_OP_ARGS);
    sh[32 + lane] = $OP(p, s);
    if (lane == 0) { sh[64] = p; sh[65] = tot; }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  *prefix = sh[64];
  *total = sh[65];
  $S wp = w > 0 ? sh[32 + w - 1] : sh[64];
  return lane > 0 ? $OP(wp, e) : wp;
}
#else
// Returns the exclusive prefix of tile t in every work-item (ends with a
// barrier). ARRC_LB work-items each wait for one earlier tile; work-item 0
// combines the window up to the nearest inclusive prefix.
inline $S arrc_lookback_$N(int t, $S total, __global ulong* aggs, __global ulong* incs, uint epoch,
                           __local $S* lv, __local int* lf, __local int* lctl, __local $S* lex
                           ARRC_OP_PARAMS) {
  int lid = get_local_id(0);
  if (t == 0) {
    if (lid == 0) { arrc_publish_$N(incs, 0, total, epoch); *lex = $NE; }
    barrier(CLK_LOCAL_MEM_FENCE);
    return *lex;
  }
  if (lid == 0) {
    arrc_publish_$N(aggs, t, total, epoch);
    *lctl = t - 1;
    *lex = $NE;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (;;) {
    int k0 = *lctl;
    if (lid < ARRC_LB) {
      int k = k0 - lid;
      if (k >= 0) {
        ulong x;
        int f;
        for (;;) {
          x = ARRC_PEEK(&incs[(long)k * ARRC_WORDS_$N]);
          if (ARRC_TAGGED(x, epoch)) { f = 2; break; }
          x = ARRC_PEEK(&aggs[(long)k * ARRC_WORDS_$N]);
          if (ARRC_TAGGED(x, epoch)) { f = 1; break; }
        }
        lf[lid] = f;
        lv[lid] = arrc_tile_value_$N(f == 2 ? incs : aggs, k, (uint)x, epoch);
      } else {
        lf[lid] = 2;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      $S ex = *lex;
      int stop = 0;
      for (int j = 0; j < ARRC_LB && k0 - j >= 0; ++j) {
        ex = $OP(lv[j], ex);
        if (lf[j] == 2) { stop = 1; break; }
      }
      *lex = ex;
      *lctl = stop ? -1 : k0 - ARRC_LB;
      if (stop) arrc_publish_$N(incs, t, $OP(ex, total), epoch);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (*lctl < 0) break;
  }
  return *lex;
}
// Tile scan (as in the NVIDIA version): work-group scan, then look-back.
inline $S arrc_tile_scan_$N($S x, int t, __global ulong* aggs, __global ulong* incs, uint epoch,
                            __local $S* sh, __local $S* lv, __local int* lf, __local int* lctl,
                            __local $S* lex, $S* prefix, $S* total ARRC_OP_PARAMS) {
  $S ex = arrc_wg_scan_$N(x, sh, total ARRC_OP_ARGS);
  *prefix = arrc_lookback_$N(t, *total, aggs, incs, epoch, lv, lf, lctl, lex ARRC_OP_ARGS);
  return $OP(*prefix, ex);
}
#endif
// The tile id of this work-group (see the look-back above); ntiles: tiles
// in the launch. NVIDIA GPUs start work-groups in increasing id order, so
// there the id itself is the launch order (as CUB's scans assume) and the
// contended atomic at the start of every tile is saved.
inline int arrc_take_tile(__global int* ctl, long ntiles, __local int* ltile) {
#if defined(ARRC_NV) && ARRC_NV_GROUP_ORDER
  return (int)get_group_id(0);
#endif
  if (get_local_id(0) == 0) {
    int t = atomic_inc(&ctl[0]);
    if (t == ntiles - 1) atomic_xchg(&ctl[0], 0);
    *ltile = t;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return *ltile;
}
)CLC";

// Single-pass scan over the adapter (ST, arrc_sop, ARRC_SNE, arrc_sload,
// arrc_sstore). ctl, aggs, incs, epoch: the look-back state (kWgHelpers).
inline const char* kScan = R"CLC(
#define TILE (WG * VT)
#define LPAD(i) ((i) + ((i) >> 5))
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_scan(long n, int inclusive, __global int* ctl, __global ulong* aggs, __global ulong* incs,
               uint epoch ARRC_PARAMS ARRC_OP_PARAMS) {
  __local ST tile[LPAD(TILE) + 1];
  __local ST sums[ARRC_SH];
  __local ST lv[ARRC_LB];
  __local int lf[ARRC_LB];
  __local int lctl, ltile;
  __local ST lex;
  int lid = get_local_id(0);
  int t = arrc_take_tile(ctl, (n + TILE - 1) / TILE, &ltile);
  long base = (long)t * TILE;
#ifdef ARRC_NV
  // Each warp stages its own 32 * VT elements (coalesced loads, blocked
  // reads) and synchronises only itself: no work-group barrier here.
  int lane = lid & 31;
  __local ST* wt = tile + LPAD((lid >> 5) * 32 * VT);
  long wbase = base + (lid >> 5) * 32 * VT;
#define ARRC_STAGE_SYNC() asm volatile("bar.warp.sync 0xffffffff;" ::: "memory")
#define ARRC_STRIPED(j) ((j) * 32 + lane)
#else
  int lane = lid;
  __local ST* wt = tile;
  long wbase = base;
#define ARRC_STAGE_SYNC() barrier(CLK_LOCAL_MEM_FENCE)
#define ARRC_STRIPED(j) ((j) * WG + lid)
#endif
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    int li = ARRC_STRIPED(j);
    if (wbase + li < n) wt[LPAD(li)] = arrc_sload(wbase + li);
  }
  ARRC_STAGE_SYNC();
  long rem = n - wbase - (long)lane * VT;
  int cnt = rem <= 0 ? 0 : (rem >= VT ? VT : (int)rem);
  ST acc = ARRC_SNE;
  if (cnt > 0) {
    acc = wt[LPAD(lane * VT)];
    for (int j = 1; j < cnt; ++j) acc = arrc_sop(acc, wt[LPAD(lane * VT + j)]);
  }
  ST prefix, total;
  ST run = arrc_tile_scan_s(acc, t, aggs, incs, epoch, sums, lv, lf, &lctl, &lex, &prefix, &total
                            ARRC_OP_ARGS);
#ifdef ARRC_SCAN_WRAPS
  uint wraps = 0;  // (unsigned sums modulo 2^32) where the sum wrapped
#endif
  for (int j = 0; j < cnt; ++j) {
    ST x = wt[LPAD(lane * VT + j)];
    ST nx = arrc_sop(run, x);
    wt[LPAD(lane * VT + j)] = inclusive ? nx : run;
#ifdef ARRC_SCAN_WRAPS
    wraps += nx < x;
#endif
    run = nx;
  }
#ifdef ARRC_SCAN_WRAPS
  if (wraps) atomic_add(ARRC_SCAN_WRAPS, wraps);
#endif
  ARRC_STAGE_SYNC();
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    int li = ARRC_STRIPED(j);
    if (wbase + li < n) arrc_sstore(wbase + li, wt[LPAD(li)]);
  }
#undef ARRC_STAGE_SYNC
#undef ARRC_STRIPED
}
)CLC";

// Segmented scan and reduce with flags on GPUs: single pass, the tiles
// chained by decoupled look-back over (value, starts) pairs (arrc_segp,
// defined by the host: member v of type T, member c = number of segment
// starts; c != 0 is the flag). Values are staged in local memory as T and
// flags as bytes, so a tile holds as many items as the plain scan's; the
// pair exists only per work-item (its VT items folded) and in the look-back.
// ARRC_SEG_MODE: 0 inclusive scan, 1 exclusive scan (NE at segment starts),
// 2 reduce: each segment's value at its end goes to arrc_store(starts - 1),
// and the last tile writes the number of segments to seg_count[0].
inline const char* kSegScan = R"CLC(
#define TILE (WG * VT)
#define LPAD(i) ((i) + ((i) >> 5))
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_segscan(long n, __global int* ctl, __global ulong* aggs, __global ulong* incs, uint epoch,
                  __global int* seg_count ARRC_PARAMS ARRC_OP_PARAMS) {
  __local T tile[LPAD(TILE) + 1];
  __local uchar ftile[TILE];
  __local arrc_segp sums[ARRC_SH];
  __local arrc_segp lv[ARRC_LB];
  __local int lf[ARRC_LB];
  __local int lctl, ltile;
  __local arrc_segp lex;
  int lid = get_local_id(0);
  int t = arrc_take_tile(ctl, (n + TILE - 1) / TILE, &ltile);
  long base = (long)t * TILE;
#ifdef ARRC_NV
  // each warp stages its own 32 * VT items (as kScan)
  int lane = lid & 31, woff = (lid >> 5) * 32 * VT;
#define WREG (32 * VT)
#define ARRC_STAGE_SYNC() asm volatile("bar.warp.sync 0xffffffff;" ::: "memory")
#define ARRC_STRIPED(j) ((j) * 32 + lane)
#else
  int lane = lid, woff = 0;
#define WREG TILE
#define ARRC_STAGE_SYNC() barrier(CLK_LOCAL_MEM_FENCE)
#define ARRC_STRIPED(j) ((j) * WG + lid)
#endif
  __local T* wt = tile + LPAD(woff);
  __local uchar* wf = ftile + woff;
  long wbase = base + woff;
  if (base > 0 && base + TILE <= n) {
    // a whole tile after element 0: no condition around any load, so that
    // all of them are issued at once (the flag's `i == 0 ||` below is a
    // branch per item, which measured 0.71 of copy instead of 0.9)
#pragma unroll
    for (int j = 0; j < VT; ++j) {
      int li = ARRC_STRIPED(j);
      long i = wbase + li;
      wt[LPAD(li)] = arrc_load(i ARRC_ARGS);
      wf[li] = arrc_flag(i ARRC_ARGS) != 0;
    }
  } else {
#pragma unroll
    for (int j = 0; j < VT; ++j) {
      int li = ARRC_STRIPED(j);
      long i = wbase + li;
      if (i < n) {
        wt[LPAD(li)] = arrc_load(i ARRC_ARGS);
        wf[li] = (arrc_flag(i ARRC_ARGS) != 0) | (i == 0);  // the flag evaluated at 0 too: its reads' checks
      }
    }
  }
  ARRC_STAGE_SYNC();
  long rem = n - wbase - (long)lane * VT;
  int cnt = rem <= 0 ? 0 : (rem >= VT ? VT : (int)rem);
  arrc_segp acc = ARRC_SEGNE;
  for (int j = 0; j < cnt; ++j) {
    int li = lane * VT + j;
    T x = wt[LPAD(li)];
    int f = wf[li];
    acc.v = f ? x : arrc_op(acc.v, x);
    acc.c += f;
  }
  arrc_segp prefix, total;
  arrc_segp run = arrc_tile_scan_s(acc, t, aggs, incs, epoch, sums, lv, lf, &lctl, &lex, &prefix,
                                   &total ARRC_OP_ARGS);
  for (int j = 0; j < cnt; ++j) {
    int li = lane * VT + j;
    T x = wt[LPAD(li)];
    int f = wf[li];
#if ARRC_SEG_MODE == 0
    wt[LPAD(li)] = f ? x : arrc_op(run.v, x);
#elif ARRC_SEG_MODE == 1
    wt[LPAD(li)] = f ? ARRC_NE : run.v;
#else
    // a start ends the segment before it (segment run.c - 1), unless that
    // one ended at the previous work-item's last item (stored there)
    if (f && j > 0) arrc_store(run.c - 1, run.v ARRC_ARGS);
    run.c += f;
#endif
    run.v = f ? x : arrc_op(run.v, x);
  }
#if ARRC_SEG_MODE == 2
  // the segment of the last item ends there when the next item starts one
  if (cnt > 0) {
    int li = lane * VT + cnt;  // the next item
    long i = wbase + li;
    if (i >= n || (li < WREG ? wf[li] : arrc_flag(i ARRC_ARGS) != 0))
      arrc_store(run.c - 1, run.v ARRC_ARGS);
  }
#endif
#if ARRC_SEG_MODE != 2
  ARRC_STAGE_SYNC();
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    int li = ARRC_STRIPED(j);
    if (wbase + li < n) arrc_store(wbase + li, wt[LPAD(li)] ARRC_ARGS);
  }
#else
  if (lid == 0 && base + TILE >= n) seg_count[0] = prefix.c + total.c;
#endif
#undef WREG
#undef ARRC_STAGE_SYNC
#undef ARRC_STRIPED
}
)CLC";

// Ordered work-group reduction of one value per work-item, and the final
// pass of every two-stage reduction (one work-group folds the partials).
inline const char* kReduceFinal = R"CLC(
inline T arrc_wg_reduce_ordered(T x, __local T* sh ARRC_OP_PARAMS) {
  int lid = get_local_id(0);
  sh[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 1; s < WG; s <<= 1) {
    if ((lid & (2 * s - 1)) == 0) sh[lid] = arrc_op(sh[lid], sh[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  T r = sh[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_reduce_final(long m, __global const T* partial, __global T* out, long out_index
                       ARRC_OP_PARAMS) {
  __local T sh[WG];
  int lid = get_local_id(0);
  long chunk = (m + WG - 1) / WG;
  long a = lid * chunk, b = min(m, a + chunk);
  T acc = ARRC_NE;
  for (long i = a; i < b; ++i) acc = arrc_op(acc, partial[i]);
  T r = arrc_wg_reduce_ordered(acc, sh ARRC_OP_ARGS);
  if (lid == 0) out[out_index] = r;
}
)CLC";

// Reduction of arrc_load(i): commutative (grid-stride) or ordered (tile)
// partial pass; then kReduceFinal.
inline const char* kReduce = R"CLC(
#define TILE (WG * VT)
#define LPAD(i) ((i) + ((i) >> 5))
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_reduce_comm(long n, __global T* partial ARRC_PARAMS ARRC_OP_PARAMS) {
  __local T sh[WG];
  long G = get_global_size(0);
  long i = get_global_id(0);
  T acc = ARRC_NE;
  for (; i + 3 * G < n; i += 4 * G) {
    T a0 = arrc_load(i ARRC_ARGS);
    T a1 = arrc_load(i + G ARRC_ARGS);
    T a2 = arrc_load(i + 2 * G ARRC_ARGS);
    T a3 = arrc_load(i + 3 * G ARRC_ARGS);
    acc = arrc_op(acc, arrc_op(arrc_op(a0, a1), arrc_op(a2, a3)));
  }
  for (; i < n; i += G) acc = arrc_op(acc, arrc_load(i ARRC_ARGS));
  T r = arrc_wg_reduce_ordered(acc, sh ARRC_OP_ARGS);
  if (get_local_id(0) == 0) partial[get_group_id(0)] = r;
}
// Each group reduces the contiguous chunk [g*chunk, (g+1)*chunk) in order.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_reduce_ordered(long n, long chunk, __global T* partial ARRC_PARAMS ARRC_OP_PARAMS) {
  __local T tile[LPAD(TILE) + 1];
  __local T sh[WG];
  int lid = get_local_id(0);
  long g0 = get_group_id(0) * chunk;
  long g1 = min(n, g0 + chunk);
  T acc = ARRC_NE;
  for (long base = g0; base < g1; base += TILE) {
    for (int j = 0; j < VT; ++j) {
      int li = j * WG + lid;
      if (base + li < g1) tile[LPAD(li)] = arrc_load(base + li ARRC_ARGS);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    long rem = g1 - base - (long)lid * VT;
    int cnt = rem <= 0 ? 0 : (rem >= VT ? VT : (int)rem);
    T a = ARRC_NE;
    for (int j = 0; j < cnt; ++j) a = arrc_op(a, tile[LPAD(lid * VT + j)]);
    T r = arrc_wg_reduce_ordered(a, sh ARRC_OP_ARGS);
    acc = arrc_op(acc, r);
  }
  if (lid == 0) partial[get_group_id(0)] = acc;
}
)CLC";

// Stable compaction (single pass, look-back on counts of type CT).
inline const char* kCompact = R"CLC(
#define TILE (WG * VT)
#define LPAD(i) ((i) + ((i) >> 5))
#ifdef ARRC_NV
// A work-group takes SUB sub-tiles of WG * VT elements and looks back once
// for all of them (the look-back is what the work-group waits on: fewer of
// them measured faster on the H100, docs/performance.md). In a sub-tile,
// rows of WG elements (striped: element j*WG + lid is item j of work-item
// lid) are loaded straight into registers; a ballot per row and warp gives
// the count and each kept element's rank; the (row, warp) counts are
// scanned, and kept values go from registers to a local tile in output
// order. The last sub-tile's scan looks back; then the whole local tile
// goes to `out` in aligned rows.
#define NWARP (WG / 32)
#ifndef SUB
#define SUB 1
#endif
#define BIG (TILE * SUB)
inline void arrc_compact_rows(long n, long base, T* vals, uint* masks, __local CT* rows
                              ARRC_PARAMS) {
  int lid = get_local_id(0), lane = lid & 31, w = lid >> 5;
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    long i = base + j * WG + lid;
    if (i < n) vals[j] = arrc_load(i ARRC_ARGS);
  }
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    long i = base + j * WG + lid;
    masks[j] = arrc_nv_ballot(i < n && arrc_keep(i, vals[j] ARRC_ARGS));
    if (lane == 0) rows[j * NWARP + w] = (CT)popcount(masks[j]);
  }
}
// Kept values to tile[rows[(row, warp)] - shift + rank] (rows: places).
inline void arrc_compact_place(const T* vals, const uint* masks, __local const CT* rows, CT shift,
                               __local T* tile) {
  int lid = get_local_id(0), lane = lid & 31, w = lid >> 5;
  uint below = (1u << lane) - 1u;
#pragma unroll
  for (int j = 0; j < VT; ++j)
    if ((masks[j] >> lane) & 1u)
      tile[rows[j * NWARP + w] - shift + popcount(masks[j] & below)] = vals[j];
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_compact(long n, __global int* ctl, __global ulong* aggs, __global ulong* incs, uint epoch,
                  __global T* out, long out_off, __global long* count_out ARRC_PARAMS) {
  __local CT rows[VT * NWARP];
  __local T tile[BIG];
  __local CT sums[ARRC_SH];
  __local CT lv[ARRC_LB];
  __local int lf[ARRC_LB];
  __local int lctl, ltile;
  __local CT lex;
  int lid = get_local_id(0);
  int t = arrc_take_tile(ctl, (n + BIG - 1) / BIG, &ltile);
  long base = (long)t * BIG;
  T vals[VT];
  uint masks[VT];
  CT acc = 0;  // kept in the earlier sub-tiles
  for (int s = 0; s < SUB - 1; ++s) {
    arrc_compact_rows(n, base + (long)s * TILE, vals, masks, rows ARRC_ARGS);
    barrier(CLK_LOCAL_MEM_FENCE);
    CT stotal;
    CT ex = arrc_wg_scan_c(lid < VT * NWARP ? rows[lid] : 0, sums, &stotal ARRC_OP_ARGS);
    if (lid < VT * NWARP) rows[lid] = ex;
    barrier(CLK_LOCAL_MEM_FENCE);
    arrc_compact_place(vals, masks, rows, -acc, tile);
    acc += stotal;
    barrier(CLK_LOCAL_MEM_FENCE);  // rows and sums are used again
  }
  arrc_compact_rows(n, base + (long)(SUB - 1) * TILE, vals, masks, rows ARRC_ARGS);
  barrier(CLK_LOCAL_MEM_FENCE);
  // the earlier sub-tiles' count rides on the first (row, warp) count, so
  // the aggregate the look-back publishes covers the whole tile
  CT prefix, total;
  CT x = lid < VT * NWARP ? rows[lid] : 0;
  CT ex = arrc_tile_scan_c(lid == 0 ? x + acc : x, t, aggs, incs, epoch, sums, lv, lf, &lctl,
                           &lex, &prefix, &total ARRC_OP_ARGS);
  if (lid < VT * NWARP) rows[lid] = lid == 0 ? ex + acc : ex;  // places in out
  barrier(CLK_LOCAL_MEM_FENCE);
  arrc_compact_place(vals, masks, rows, prefix, tile);
  barrier(CLK_LOCAL_MEM_FENCE);
  // whole 128-byte rows of out where they can be
  long o0 = out_off + prefix;
  long s0 = sizeof(T) <= 128 ? o0 & ~(long)(128 / sizeof(T) - 1) : o0;
  for (long p = s0 + lid; p < o0 + total; p += WG)
    if (p >= o0) ARRC_OUT(p, tile[p - o0]);
  if (lid == 0 && base + BIG >= n) count_out[0] = (long)(prefix + total);
}
#else
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_compact(long n, __global int* ctl, __global ulong* aggs, __global ulong* incs, uint epoch,
                  __global T* out, long out_off, __global long* count_out ARRC_PARAMS) {
  __local T tile[LPAD(TILE) + 1];
  __local CT sums[ARRC_SH];
  __local CT lv[ARRC_LB];
  __local int lf[ARRC_LB];
  __local int lctl, ltile;
  __local CT lex;
  int lid = get_local_id(0);
  int t = arrc_take_tile(ctl, (n + TILE - 1) / TILE, &ltile);
  long base = (long)t * TILE;
  for (int j = 0; j < VT; ++j) {
    int li = j * WG + lid;
    long i = base + li;
    if (i < n) tile[LPAD(li)] = arrc_load(i ARRC_ARGS);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  long rem = n - base - (long)lid * VT;
  int cnt = rem <= 0 ? 0 : (rem >= VT ? VT : (int)rem);
  T vals[VT];
  uint mask = 0;
  CT c = 0;
  for (int j = 0; j < VT; ++j) {
    if (j < cnt) {
      T v = tile[LPAD(lid * VT + j)];
      vals[j] = v;
      if (arrc_keep(base + lid * VT + j, v ARRC_ARGS)) { mask |= 1u << j; c++; }
    }
  }
  CT prefix, total;
  CT pos = arrc_tile_scan_c(c, t, aggs, incs, epoch, sums, lv, lf, &lctl, &lex, &prefix, &total
                           ARRC_OP_ARGS) - prefix;
  for (int j = 0; j < VT; ++j)
    if (mask & (1u << j)) { tile[LPAD(pos)] = vals[j]; pos++; }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (CT li = lid; li < total; li += WG) ARRC_OUT(out_off + prefix + li, tile[LPAD(li)]);
  if (lid == 0 && base + TILE >= n) count_out[0] = (long)(prefix + total);
}
#endif
)CLC";

// CPU schedule (Config::cpu in primitives.cpp): one contiguous chunk per
// work-item, work-groups of one work-item, no local memory or barriers.
// Locals are prefixed: they share the scope of the fused parameters.
// Reductions: chunk partials, then one ordered fold.
inline const char* kReduceCpu = R"CLC(
#ifdef ARRC_FKEY_T
// float / double (ARRC_FKEY_F) to and from an integer key of the same width:
// ARRC_FKEY_MASK the magnitude bits, ARRC_FKEY_INF infinity's bits,
// ARRC_FKEY_NAN the key of NaN (the least key for max, the greatest for min)
inline ARRC_FKEY_T arrc_fkey(ARRC_FKEY_F x) {
  ARRC_FKEY_T b = ARRC_FKEY_AS(x);
  return (b & ARRC_FKEY_MASK) > ARRC_FKEY_INF ? ARRC_FKEY_NAN : (b < 0 ? b ^ ARRC_FKEY_MASK : b);
}
inline ARRC_FKEY_F arrc_funkey(ARRC_FKEY_T b) { return ARRC_FKEY_BACK(b < 0 ? b ^ ARRC_FKEY_MASK : b); }
#endif
__kernel void arrc_reduce_chunks(long n, long chunk, __global T* partial ARRC_PARAMS ARRC_OP_PARAMS) {
  long arrc_g = get_global_id(0);
  long arrc_lo = arrc_g * chunk, arrc_hi = min(n, arrc_lo + chunk);
  T arrc_acc = ARRC_NE;
#ifdef ARRC_COMMUTATIVE
  // independent accumulators, so that consecutive operations overlap
  T arrc_a1 = ARRC_NE, arrc_a2 = ARRC_NE, arrc_a3 = ARRC_NE;
  long arrc_i = arrc_lo;
  for (; arrc_i + 3 < arrc_hi; arrc_i += 4) {
    arrc_acc = arrc_op(arrc_acc, arrc_load(arrc_i ARRC_ARGS));
    arrc_a1 = arrc_op(arrc_a1, arrc_load(arrc_i + 1 ARRC_ARGS));
    arrc_a2 = arrc_op(arrc_a2, arrc_load(arrc_i + 2 ARRC_ARGS));
    arrc_a3 = arrc_op(arrc_a3, arrc_load(arrc_i + 3 ARRC_ARGS));
  }
  for (; arrc_i < arrc_hi; ++arrc_i) arrc_acc = arrc_op(arrc_acc, arrc_load(arrc_i ARRC_ARGS));
  arrc_acc = arrc_op(arrc_op(arrc_acc, arrc_a1), arrc_op(arrc_a2, arrc_a3));
#elif defined(ARRC_FKEY_T)
  // min / max of floats as a min / max of integer keys, monotone in the
  // value (a negative value's magnitude bits flipped; NaN the neutral key, as
  // fmin and fmax skip it): the device compiler vectorises an integer min /
  // max, but PoCL's keeps an fmax reduction scalar (10^7 floats, one
  // thread: 9.8 -> 2.1 ms). NaN is tested on the bits (PoCL inlines its
  // isnan after vectorising) and the pick is a select (with the max / min
  // built-in PoCL's LLVM does not find the reduction).
  ARRC_FKEY_T arrc_k = arrc_fkey(arrc_acc);
#pragma clang loop vectorize_width(ARRC_VECTOR_WIDTH) interleave_count(2)
  for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) arrc_k = ARRC_FKEY_PICK(arrc_k, arrc_fkey(arrc_load(arrc_i ARRC_ARGS)));
  arrc_acc = arrc_funkey(arrc_k);
#else
#ifdef ARRC_VECTOR_WIDTH
  // +, *, min, max of integers and floats: a plain reduction, vectorised by
  // the device compiler; the hint asks for full vectors (PoCL picked 4 x i64
  // for the count of a filter) and allows reordering float operations
#pragma clang loop vectorize_width(ARRC_VECTOR_WIDTH) interleave_count(2)
#endif
  for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) arrc_acc = arrc_op(arrc_acc, arrc_load(arrc_i ARRC_ARGS));
#endif
  partial[arrc_g] = arrc_acc;
}
)CLC";

// The ordered fold of chunk partials (CPU schedule of every reduction).
inline const char* kReduceCpuFinal = R"CLC(
__kernel void arrc_reduce_chunks_final(long m, __global const T* partial, __global T* out, long out_index
                                       ARRC_OP_PARAMS) {
  T arrc_acc = ARRC_NE;
  for (long arrc_g = 0; arrc_g < m; ++arrc_g) arrc_acc = arrc_op(arrc_acc, partial[arrc_g]);
  out[out_index] = arrc_acc;
}
)CLC";

// Scans over the adapter (as kScan): chunk totals, an exclusive scan of the
// totals, then each chunk again from its prefix.
inline const char* kScanCpu = R"CLC(
__kernel void arrc_cscan_reduce(long n, long chunk, __global ST* partial ARRC_PARAMS ARRC_OP_PARAMS) {
  long arrc_g = get_global_id(0);
  long arrc_lo = arrc_g * chunk, arrc_hi = min(n, arrc_lo + chunk);
  ST arrc_acc = ARRC_SNE;
#ifdef ARRC_VECTOR_WIDTH
  // +, *, min, max of a scalar: the chunk's total as a vectorised reduction
  // (as kReduceCpu; 10^7 floats, one thread: 4.8 -> 0.9 ms)
#pragma clang loop vectorize_width(ARRC_VECTOR_WIDTH) interleave_count(2)
#endif
  for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) arrc_acc = arrc_sop(arrc_acc, arrc_sload(arrc_i));
  partial[arrc_g] = arrc_acc;
}
__kernel void arrc_cscan_partials(long m, __global ST* partial ARRC_OP_PARAMS) {
  ST arrc_run = ARRC_SNE;
  for (long arrc_g = 0; arrc_g < m; ++arrc_g) {
    ST arrc_x = partial[arrc_g];
    partial[arrc_g] = arrc_run;
    arrc_run = arrc_sop(arrc_run, arrc_x);
  }
}
__kernel void arrc_cscan_apply(long n, long chunk, int inclusive, __global const ST* partial ARRC_PARAMS
                               ARRC_OP_PARAMS) {
  long arrc_g = get_global_id(0);
  long arrc_lo = arrc_g * chunk, arrc_hi = min(n, arrc_lo + chunk);
  // the first chunk's prefix is the neutral element (a scan of one chunk
  // launches this kernel alone, partial unset)
  ST arrc_run = arrc_g == 0 ? ARRC_SNE : partial[arrc_g];
  // one loop per kind, without a select per element
  if (inclusive) {
    for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) {
      arrc_run = arrc_sop(arrc_run, arrc_sload(arrc_i));
      arrc_sstore(arrc_i, arrc_run);
    }
  } else {
    for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) {
      ST arrc_nx = arrc_sop(arrc_run, arrc_sload(arrc_i));
      arrc_sstore(arrc_i, arrc_run);
      arrc_run = arrc_nx;
    }
  }
}
)CLC";

// Per-chunk counts to their exclusive offsets, in place, and their total
// (one work-item; compaction and segmented reduce on CPUs).
inline const char* kChunkOffsets = R"CLC(
__kernel void arrc_chunk_offsets(long m, __global long* counts, __global long* total) {
  long arrc_run = 0;
  for (long arrc_g = 0; arrc_g < m; ++arrc_g) {
    long arrc_c = counts[arrc_g];
    counts[arrc_g] = arrc_run;
    arrc_run += arrc_c;
  }
  total[0] = arrc_run;
}
)CLC";

// Stable compaction: kept count per chunk, their offsets (and the total:
// kChunkOffsets), then each chunk writes its kept elements from its offset.
inline const char* kCompactCpu = R"CLC(
__kernel void arrc_ccompact_count(long n, long chunk, __global long* counts ARRC_PARAMS) {
  long arrc_g = get_global_id(0);
  long arrc_lo = arrc_g * chunk, arrc_hi = min(n, arrc_lo + chunk);
  long arrc_c = 0;
  for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) arrc_c += arrc_keep(arrc_i, arrc_load(arrc_i ARRC_ARGS) ARRC_ARGS) != 0;
  counts[arrc_g] = arrc_c;
}
__kernel void arrc_ccompact_write(long n, long chunk, __global const long* offs,
                                  __global const long* total, __global T* out,
                                  long out_off ARRC_PARAMS) {
  long arrc_g = get_global_id(0);
  long arrc_lo = arrc_g * chunk, arrc_hi = min(n, arrc_lo + chunk);
  long arrc_p = out_off + offs[arrc_g];
  long arrc_end = out_off + (arrc_g + 1 < (long)get_global_size(0) ? offs[arrc_g + 1] : total[0]);
  // Blocks of 64 while at least 64 of the chunk's output slots remain: the
  // values and keep flags first (no branch: vectorised as the count is),
  // then every value stored at the next slot, which advances only past kept
  // ones (a later store overwrites the rest, all inside the chunk's slots).
  // A branch per element mispredicts: on PoCL, one thread, 10^7 ints kept at
  // random, 50% 36 -> 5.7 ms, 5% 7.7 -> 5.4 ms.
  long arrc_i = arrc_lo;
  for (; arrc_i + 64 <= arrc_hi && arrc_p + 64 <= arrc_end; arrc_i += 64) {
    T arrc_vs[64];
    uchar arrc_fl[64];
    for (int arrc_j = 0; arrc_j < 64; ++arrc_j) {
      arrc_vs[arrc_j] = arrc_load(arrc_i + arrc_j ARRC_ARGS);
      arrc_fl[arrc_j] = arrc_keep(arrc_i + arrc_j, arrc_vs[arrc_j] ARRC_ARGS) != 0;
    }
    for (int arrc_j = 0; arrc_j < 64; ++arrc_j) {
      ARRC_OUT(arrc_p, arrc_vs[arrc_j]);
      arrc_p += arrc_fl[arrc_j];
    }
  }
  // The rest one by one, up to the chunk's last kept element (the count pass
  // has evaluated every element, so skipping the rest skips no error).
  for (; arrc_i < arrc_hi && arrc_p < arrc_end; ++arrc_i) {
    T arrc_v = arrc_load(arrc_i ARRC_ARGS);
    if (arrc_keep(arrc_i, arrc_v ARRC_ARGS)) { ARRC_OUT(arrc_p, arrc_v); arrc_p++; }
  }
}
)CLC";

// Segmented reduce with flags: each chunk counts its segment starts (flags
// only), kChunkOffsets turns the counts into each chunk's first segment
// index, then each chunk folds its values once: segments that start and end
// inside it go straight to `out`, and the part before its first start (head)
// and from its last start on (tail) are kept; a last ordered pass joins the
// heads and tails of the segments that cross chunk edges. The values are
// read once; the scan adapter read them twice through a (value, flag,
// count) operator.
inline const char* kSegReduceCpu = R"CLC(
// (the flag evaluated at i == 0 too, for the bounds checks of its reads)
inline int arrc_csegred_starts(long i ARRC_PARAMS) { return (arrc_flag(i ARRC_ARGS) != 0) | (i == 0); }
__kernel void arrc_csegred_count(long n, long chunk, __global long* starts ARRC_PARAMS) {
  long arrc_g = get_global_id(0);
  long arrc_lo = arrc_g * chunk, arrc_hi = min(n, arrc_lo + chunk);
  long arrc_s = 0;
  for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) arrc_s += arrc_csegred_starts(arrc_i ARRC_ARGS);
  starts[arrc_g] = arrc_s;
}
__kernel void arrc_csegred_fold(long n, long chunk, __global const long* bases, __global T* heads,
                                __global T* tails, __global T* out, long out_off ARRC_PARAMS
                                ARRC_OP_PARAMS) {
  long arrc_g = get_global_id(0);
  long arrc_lo = arrc_g * chunk, arrc_hi = min(n, arrc_lo + chunk);
  long arrc_base = bases[arrc_g], arrc_seg = arrc_base - 1;  // the segment open at arrc_lo
  T arrc_acc = ARRC_NE;
  for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) {
    T arrc_x = arrc_load(arrc_i ARRC_ARGS);
    if (arrc_csegred_starts(arrc_i ARRC_ARGS)) {
      if (arrc_seg >= arrc_base) ARRC_OUT(out_off + arrc_seg, arrc_acc);
      else heads[arrc_g] = arrc_acc;
      arrc_seg++;
      arrc_acc = arrc_x;
    } else {
      arrc_acc = arrc_op(arrc_acc, arrc_x);
    }
  }
  if (arrc_seg >= arrc_base) tails[arrc_g] = arrc_acc;
  else heads[arrc_g] = arrc_acc;
}
__kernel void arrc_csegred_join(long m, __global const long* bases, __global const long* count,
                                __global const T* heads, __global const T* tails, __global T* out,
                                long out_off ARRC_PARAMS ARRC_OP_PARAMS) {
  T arrc_open = ARRC_NE;  // the segment open at the end of the chunks so far
  for (long arrc_g = 0; arrc_g < m; ++arrc_g) {
    long arrc_next = arrc_g + 1 < m ? bases[arrc_g + 1] : count[0];
    if (arrc_next == bases[arrc_g]) {
      arrc_open = arrc_op(arrc_open, heads[arrc_g]);
    } else {
      if (arrc_g > 0) ARRC_OUT(out_off + bases[arrc_g] - 1, arrc_op(arrc_open, heads[arrc_g]));
      arrc_open = tails[arrc_g];
    }
  }
  ARRC_OUT(out_off + count[0] - 1, arrc_open);
}
)CLC";

inline const char* kMisc = R"CLC(
__kernel void arrc_fill(long n, __global T* out, long off) {
  long i = get_global_id(0);
  if (i < n) out[off + i] = ARRC_FILL_VALUE;
}
)CLC";

inline const char* kScatter = R"CLC(
__kernel void arrc_scatter(long n, __global T* dest, long dest_off, long dest_n ARRC_PARAMS) {
  long k = get_global_id(0);
  if (k >= n) return;
  long j = arrc_index(k ARRC_ARGS);
  T v = arrc_load(k ARRC_ARGS);  // every value is evaluated, its index in range or not (its errors too)
  if (j >= 0 && j < dest_n) ARRC_OUT_AT(dest, dest_off, j, v);
}
)CLC";
inline const char* kGather = R"CLC(
__kernel void arrc_gather(long n, __global const T* src, long src_off, long src_stride, long src_n,
                          __global T* out, long out_off, __global long* err, int pos ARRC_PARAMS) {
  long k = get_global_id(0);
  if (k >= n) return;
  long j = arrc_index(k ARRC_ARGS);
  if (j < 0 || j >= src_n) { arrc_raise_bounds(err, pos, j, src_n, 0); return; }
  out[out_off + k] = src[src_off + j * src_stride];
}
)CLC";

// Histogram in the CPU schedule: each work-item folds its chunk into a
// private histogram (no atomics), then each work-item merges a range of bins.
inline const char* kHistCpu = R"CLC(
__kernel void arrc_hist_chunks(long n, long chunk, long nbins, long arrc_rw, __global T* part ARRC_PARAMS
                               ARRC_OP_PARAMS) {
  long arrc_g = get_global_id(0);
  __global T* arrc_h = part + arrc_g * nbins;
  for (long arrc_b = 0; arrc_b < nbins; ++arrc_b) arrc_h[arrc_b] = ARRC_NE;
  long arrc_lo = arrc_g * chunk, arrc_hi = min(n, arrc_lo + chunk);
#ifdef ARRC_ROW_HOOKS
  // the hooks in row form (a flattened index's row and column stepped on,
  // not divided out per element) where the body's divisions are all by the
  // row width arrc_rw
  if (arrc_rw > 0 && arrc_hi > arrc_lo && arrc_rows_exact(arrc_rw ARRC_ARGS)) {
    long arrc_r = arrc_lo / arrc_rw, arrc_c = arrc_lo - arrc_r * arrc_rw;
    for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) {
      long arrc_b = arrc_bin_rc(arrc_r, arrc_c ARRC_ARGS);
      T arrc_v = arrc_load_rc(arrc_r, arrc_c ARRC_ARGS);
      if (arrc_b >= 0 && arrc_b < nbins) arrc_h[arrc_b] = arrc_op(ARRC_GLOAD(arrc_h + arrc_b), arrc_v);
      if (++arrc_c == arrc_rw) arrc_c = 0, ++arrc_r;
    }
    return;
  }
#endif
  for (long arrc_i = arrc_lo; arrc_i < arrc_hi; ++arrc_i) {
    // Every value is evaluated, in range or not (its errors too, as the
    // reference semantics); read before the bin test, the producer's
    // loop-invariant work (an index division's reciprocal) is also hoisted
    // out of the loop.
    long arrc_b = arrc_bin(arrc_i ARRC_ARGS);
    T arrc_v = arrc_load(arrc_i ARRC_ARGS);
    if (arrc_b >= 0 && arrc_b < nbins) arrc_h[arrc_b] = arrc_op(ARRC_GLOAD(arrc_h + arrc_b), arrc_v);
  }
}
__kernel void arrc_hist_merge(long nchunks, long nbins, long bchunk, __global const T* part,
                              __global T* out, long out_off ARRC_PARAMS ARRC_OP_PARAMS) {
  long arrc_lo = get_global_id(0) * bchunk, arrc_hi = min(nbins, arrc_lo + bchunk);
  for (long arrc_b = arrc_lo; arrc_b < arrc_hi; ++arrc_b) {
    T arrc_acc = ARRC_NE;
    for (long arrc_c = 0; arrc_c < nchunks; ++arrc_c)
      arrc_acc = arrc_op(arrc_acc, ARRC_GLOAD(part + arrc_c * nbins + arrc_b));
    ARRC_OUT(out_off + arrc_b, arrc_acc);
  }
}
)CLC";

// Segmented reduce with offsets, CPU schedule: work-item g takes the
// segments that start in its share of the elements (whole segments, found
// by binary search on the offsets) and folds each in order.
inline const char* kSegReduceOffsetsCpu = R"CLC(
// The first s in [0, nseg] with offs[s] >= e (nseg if none).
inline long arrc_csegoff_first(__global const long* offs, long nseg, long e) {
  long lo = 0, hi = nseg;
  while (lo < hi) {
    long m = (lo + hi) >> 1;
    if (offs[m] < e) lo = m + 1; else hi = m;
  }
  return lo;
}
__kernel void arrc_csegred_offs(long nseg, long nchunks, __global const long* offs, __global T* out,
                                long out_off ARRC_PARAMS ARRC_OP_PARAMS) {
  long arrc_g = get_global_id(0);
  long arrc_a = offs[0], arrc_per = (offs[nseg] - arrc_a + nchunks - 1) / nchunks;
  long arrc_s0 = arrc_g == 0 ? 0 : arrc_csegoff_first(offs, nseg, arrc_a + arrc_g * arrc_per);
  long arrc_s1 = arrc_g == nchunks - 1 ? nseg : arrc_csegoff_first(offs, nseg, arrc_a + (arrc_g + 1) * arrc_per);
  for (long arrc_s = arrc_s0; arrc_s < arrc_s1; ++arrc_s) {
    T arrc_acc = ARRC_NE;
    long arrc_e = offs[arrc_s + 1];
    for (long arrc_i = offs[arrc_s]; arrc_i < arrc_e; ++arrc_i) arrc_acc = arrc_op(arrc_acc, arrc_load(arrc_i ARRC_ARGS));
    ARRC_OUT(out_off + arrc_s, arrc_acc);
  }
}
)CLC";

// Segmented reduce with offsets on NVIDIA (ARRC_NV): a group of SG lanes
// per segment, SG a power of two from 1 to 32 chosen from the mean segment
// length (offs[nseg] - offs[0]) / nseg so that a window of SG * SVT elements
// holds about one segment: a warp takes 32 / SG consecutive segments at once
// (its loads stay contiguous), where a whole warp per short segment left
// most lanes idle. The group walks its segment in windows, lane l of the
// group folding the SVT consecutive elements from l * SVT in order; the
// lanes' values are combined in lane order by shuffles within the group, so
// any associative operator works. Every loop runs the same number of times
// in all lanes of a warp (the shuffles need the whole warp).
inline const char* kSegReduceOffsetsWarp = R"CLC(
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_segreduce_off_warp(long nseg, __global const long* offs, __global T* out, long out_off
                             ARRC_PARAMS ARRC_OP_PARAMS) {
  int lane = get_local_id(0) & 31;
  long mean = (offs[nseg] - offs[0]) / max(nseg, 1L);
  int sg = 1;
  while (sg < 32 && (long)sg * SVT < mean) sg <<= 1;
  int per = 32 / sg, g = lane / sg, gl = lane % sg;
  long warps = get_global_size(0) / 32;
  for (long s0 = (get_global_id(0) / 32) * per; s0 < nseg; s0 += warps * per) {
    long s = s0 + g;
    long a = s < nseg ? offs[s] : 0, b = s < nseg ? offs[s + 1] : 0;
    // the most windows of the warp's segments, in every lane
    uint windows = b > a ? (uint)((b - a + (long)sg * SVT - 1) / ((long)sg * SVT)) : 0u;
    for (uint d = 16; d >= 1; d >>= 1) windows = max(windows, arrc_nv_shdown(windows, d));
    windows = arrc_nv_shidx(windows, 0);
    T acc = ARRC_NE;
    for (uint w = 0; w < windows; ++w) {
      long j0 = a + ((long)w * sg + gl) * SVT;
      T x = ARRC_NE;
#pragma unroll
      for (int k = 0; k < SVT; ++k)
        if (j0 + k < b) x = arrc_op(x, arrc_load(j0 + k ARRC_ARGS));
      for (uint d = 1; d < (uint)sg; d <<= 1) {
        T y = arrc_shdown_t(x, d);
        if (gl + d < (uint)sg) x = arrc_op(x, y);
      }
      acc = arrc_op(acc, x);
    }
    if (gl == 0 && s < nseg) ARRC_OUT(out_off + s, acc);
  }
}
)CLC";

inline const char* kSegReduceOffsets = R"CLC(
// One work-group per segment; each work-item reduces a contiguous piece.
__kernel void arrc_segreduce_off(long nseg, __global const long* offs, __global T* out, long out_off,
                                 __local T* sh ARRC_PARAMS ARRC_OP_PARAMS) {
  int lid = get_local_id(0), L = get_local_size(0);
  for (long s = get_group_id(0); s < nseg; s += get_num_groups(0)) {
    long a = offs[s], b = offs[s + 1];
    long len = b - a;
    long chunk = (len + L - 1) / L;
    long x0 = a + lid * chunk, x1 = min(b, x0 + chunk);
    T acc = ARRC_NE;
    for (long i = x0; i < x1; ++i) acc = arrc_op(acc, arrc_load(i ARRC_ARGS));
    sh[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int st = 1; st < L; st <<= 1) {
      if ((lid & (2 * st - 1)) == 0 && lid + st < L) sh[lid] = arrc_op(sh[lid], sh[lid + st]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) ARRC_OUT(out_off + s, sh[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
__kernel void arrc_offsets_to_flags(long nseg, long n, __global const long* offs, __global uchar* flags) {
  long s = get_global_id(0);
  if (s < nseg) { long o = offs[s]; if (o >= 0 && o < n) flags[o] = 1; }
}
)CLC";

// Histogram on GPUs (commutative operators; the host picks the schedule).
// Each work-group folds its share of the input (ARRC_HIST_RANGE: coalesced
// loads, HU elements in flight per work-item) into histograms
// in local memory, and writes its histogram to part[g * nbins ..]; then
// arrc_hist_merge_parts folds the groups' histograms bin by bin, in group
// order (one work-group per bin). ARRC_HIST_LOCAL_UPDATE(p, v) combines v
// into *p atomically (defined by the host for the type and operator).
inline const char* kHistGpu = R"CLC(
// The elements a work-item takes: from i below hi in steps of S. Grid
// stride (ARRC_HIST_GRID 1: the whole launch sweeps the input together, as
// the reduce does), or the group's contiguous chunk (0).
#ifndef HU
#define HU 4
#endif
#ifndef ARRC_HIST_GRID
#define ARRC_HIST_GRID 1
#endif
#if ARRC_HIST_GRID
#define ARRC_HIST_RANGE(i, hi, S) \
  long i = get_global_id(0), hi = n, S = get_global_size(0); (void)chunk
#else
#define ARRC_HIST_RANGE(i, hi, S) \
  long i = (long)get_group_id(0) * chunk + (long)get_local_id(0), \
       hi = min(n, (long)get_group_id(0) * chunk + chunk), S = WG
#endif
// Private: h[b * WG + lid] belongs to work-item lid alone (no atomics, any
// element type); the WG slots of a bin are folded in order afterwards.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_hist_private(long n, long nbins, long chunk, __global T* part, __local T* h
                       ARRC_PARAMS ARRC_OP_PARAMS) {
  int lid = get_local_id(0);
  for (long b = 0; b < nbins; ++b) h[b * WG + lid] = ARRC_NE;
  ARRC_HIST_RANGE(i, hi, S);
  // HU elements' loads in flight before their updates
  for (; i + (HU - 1) * S < hi; i += HU * S) {
    long b[HU];
    T v[HU];
#pragma unroll
    for (int u = 0; u < HU; ++u) {
      b[u] = arrc_bin(i + u * S ARRC_ARGS);
      v[u] = arrc_load(i + u * S ARRC_ARGS);
    }
#pragma unroll
    for (int u = 0; u < HU; ++u)
      if (b[u] >= 0 && b[u] < nbins) {
        __local T* p = h + b[u] * WG + lid;
        *p = arrc_op(*p, v[u]);
      }
  }
  for (; i < hi; i += S) {
    long b = arrc_bin(i ARRC_ARGS);
    T v = arrc_load(i ARRC_ARGS);  // every value is evaluated (its errors too)
    if (b >= 0 && b < nbins) {
      __local T* p = h + b * WG + lid;
      *p = arrc_op(*p, v);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // the WG slots of a bin folded by `per` work-items, a stripe each, then
  // their `per` partial folds (k-means' counts, 10^6 ints into 10 bins on
  // the H100: 10.1 -> 8.1 us against one work-item folding a bin's 256)
  const int per = nbins <= WG / 2 ? WG / (int)nbins : 1;
  if (per > 1) {
    const int b = lid / per, p = lid - b * per;
    T acc = ARRC_NE;
    if (b < nbins)
      for (int t = p; t < WG; t += per) acc = arrc_op(acc, h[b * WG + t]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (b < nbins) h[b * WG + p] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (long b = lid; b < nbins; b += WG) {
    T acc = h[b * WG];
    for (int t = 1; t < (per > 1 ? per : WG); ++t) acc = arrc_op(acc, h[b * WG + t]);
    part[get_group_id(0) * nbins + b] = acc;
  }
}
#ifdef ARRC_HIST_LOCAL_UPDATE
// Shared: `reps` copies of the histogram, warp w updating copy w % reps
// atomically (fewer collisions than one copy for the whole group).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_hist_shared(long n, long nbins, long chunk, int reps, __global T* part, __local T* h
                      ARRC_PARAMS ARRC_OP_PARAMS) {
  int lid = get_local_id(0);
  for (long b = lid; b < nbins * reps; b += WG) h[b] = ARRC_NE;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local T* mine = h + ((lid >> 5) % reps) * nbins;
  ARRC_HIST_RANGE(i, hi, S);
  // HU elements' loads in flight before their updates
  for (; i + (HU - 1) * S < hi; i += HU * S) {
    long b[HU];
    T v[HU];
#pragma unroll
    for (int u = 0; u < HU; ++u) {
      b[u] = arrc_bin(i + u * S ARRC_ARGS);
      v[u] = arrc_load(i + u * S ARRC_ARGS);
    }
#pragma unroll
    for (int u = 0; u < HU; ++u)
      if (b[u] >= 0 && b[u] < nbins) ARRC_HIST_LOCAL_UPDATE(mine + b[u], v[u]);
  }
  for (; i < hi; i += S) {
    long b = arrc_bin(i ARRC_ARGS);
    T v = arrc_load(i ARRC_ARGS);  // every value is evaluated (its errors too)
    if (b >= 0 && b < nbins) ARRC_HIST_LOCAL_UPDATE(mine + b, v);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (long b = lid; b < nbins; b += WG) {
    T acc = h[b];
    for (int r = 1; r < reps; ++r) acc = arrc_op(acc, h[r * nbins + b]);
    part[get_group_id(0) * nbins + b] = acc;
  }
}
// Rows: the elements come in rows of R (element i * R + c: row i, column
// c), and a row's bins are usually r(i) + c with r(i) a multiple of R
// (k-means' sums, bin ids[i] * d + j). Work-item lid is column c = lid % R
// of lane lid / R; each of the L lanes takes whole rows (coalesced) and has
// its own copy of the histogram, in which work-item c updates only bins
// b == c (mod R) with a plain load and store: no two work-items of a lane
// share such a bin, so no atomics (a double's is a compare-and-swap loop
// on NVIDIA). Any other bin goes to the shared copy after the L lanes',
// atomically: any bin pattern is right, the usual one fast. arrc_rwm
// is (2^32 - 1) / R for b % R (b < 2^31). Generated code may also give the
// hooks in row form (ARRC_ROW_HOOKS): arrc_bin_rc(r, c) and
// arrc_load_rc(r, c), valid where arrc_rows_exact() says so (the body's
// divisions of i all by R), which spares the divisions of i.
#define ARRC_ROW_ADD(b, v)                                                  \
  if ((b) >= 0 && (b) < nbins) {                                            \
    uint q_ = mul_hi((uint)(b), arrc_rwm);                                  \
    q_ += (uint)(b) - q_ * (uint)arrc_rw >= (uint)arrc_rw ? 1u : 0u;        \
    if ((int)((uint)(b) - q_ * (uint)arrc_rw) == c) {                       \
      __local T* p_ = mine + (b);                                           \
      *p_ = arrc_op(*p_, (v));                                              \
    } else {                                                                \
      ARRC_HIST_LOCAL_UPDATE(shared + (b), (v));                            \
    }                                                                       \
  }
// HU rows' loads in flight before their updates, then the rest
#define ARRC_ROWS_LOOP(BIN, LOAD)                                           \
  for (; (r + (HU - 1) * S) * arrc_rw + c < n; r += HU * S) {               \
    long b[HU];                                                             \
    T v[HU];                                                                \
    _Pragma("unroll") for (int u = 0; u < HU; ++u) {                        \
      b[u] = BIN((r + u * S) * arrc_rw + c, r + u * S, c);                  \
      v[u] = LOAD((r + u * S) * arrc_rw + c, r + u * S, c);                 \
    }                                                                       \
    _Pragma("unroll") for (int u = 0; u < HU; ++u) { ARRC_ROW_ADD(b[u], v[u]) } \
  }                                                                         \
  for (; r < rows; r += S) {                                                \
    if (r * arrc_rw + c < n) {                                              \
      long b = BIN(r * arrc_rw + c, r, c);                                  \
      T v = LOAD(r * arrc_rw + c, r, c); /* every value is evaluated (its errors too) */ \
      ARRC_ROW_ADD(b, v)                                                    \
    }                                                                       \
  }
#define ARRC_RB_FLAT(i, r, c) arrc_bin((i) ARRC_ARGS)
#define ARRC_RL_FLAT(i, r, c) arrc_load((i) ARRC_ARGS)
#define ARRC_RB_ROW(i, r, c) arrc_bin_rc((r), (c) ARRC_ARGS)
#define ARRC_RL_ROW(i, r, c) arrc_load_rc((r), (c) ARRC_ARGS)
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_hist_rows(long n, long nbins, int arrc_rw, int arrc_lanes, uint arrc_rwm, __global T* part, __local T* h
                    ARRC_PARAMS ARRC_OP_PARAMS) {
  int lid = get_local_id(0);
  for (long b = lid; b < nbins * (arrc_lanes + 1); b += WG) h[b] = ARRC_NE;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int lane = lid / arrc_rw, c = lid - lane * arrc_rw;
  if (lane < arrc_lanes) {
    __local T* mine = h + lane * nbins;
    __local T* shared = h + arrc_lanes * nbins;
    const long rows = (n + arrc_rw - 1) / arrc_rw, S = (long)get_num_groups(0) * arrc_lanes;
    long r = (long)get_group_id(0) * arrc_lanes + lane;
#ifdef ARRC_ROW_HOOKS
    if (arrc_rows_exact(arrc_rw ARRC_ARGS)) {
      ARRC_ROWS_LOOP(ARRC_RB_ROW, ARRC_RL_ROW)
    } else
#endif
    {
      ARRC_ROWS_LOOP(ARRC_RB_FLAT, ARRC_RL_FLAT)
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (long b = lid; b < nbins; b += WG) {
    T acc = h[b];
    for (int l = 1; l <= arrc_lanes; ++l) acc = arrc_op(acc, h[l * nbins + b]);
    part[get_group_id(0) * nbins + b] = acc;
  }
}
#endif
// Bin b = get_group_id(0): the groups' histograms folded in group order.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_hist_merge_parts(long groups, long nbins, __global const T* part, __global T* out,
                           long out_off ARRC_PARAMS ARRC_OP_PARAMS) {
  __local T sh[WG];
  int lid = get_local_id(0);
  long b = get_group_id(0);
  long per = (groups + WG - 1) / WG;
  long g0 = lid * per, g1 = min(groups, g0 + per);
  T acc = ARRC_NE;
  for (long g = g0; g < g1; ++g) acc = arrc_op(acc, part[g * nbins + b]);
  T r = arrc_wg_reduce_ordered(acc, sh ARRC_OP_ARGS);
  if (lid == 0) ARRC_OUT(out_off + b, r);
}
#ifdef ARRC_HIST_GLOBAL_UPDATE
// Global: too many bins for local memory; acc (nbins elements) starts at NE.
__kernel void arrc_hist_init(long nbins, __global T* acc, long acc_off ARRC_OP_PARAMS) {
  long b = get_global_id(0);
  if (b < nbins) acc[acc_off + b] = ARRC_NE;
}
// copies > 1: work-group g adds to copy g % copies of the bins (acc holds
// copies * nbins elements), which arrc_hist_merge_copies then folds: fewer
// updates of one address at once where the bins are few for global memory.
__kernel void arrc_hist_global(long n, long nbins, long copies, __global T* acc, long acc_off
                               ARRC_PARAMS ARRC_OP_PARAMS) {
  long G = get_global_size(0);
  __global T* h = acc + acc_off + (long)(get_group_id(0) % copies) * nbins;
  for (long i = get_global_id(0); i < n; i += G) {
    long b = arrc_bin(i ARRC_ARGS);
    T v = arrc_load(i ARRC_ARGS);  // every value is evaluated (its errors too)
    if (b >= 0 && b < nbins) ARRC_HIST_GLOBAL_UPDATE(h + b, v);
  }
}
// Bin b = get_global_id(0): its copies folded in copy order.
__kernel void arrc_hist_merge_copies(long copies, long nbins, __global const T* part, __global T* out,
                                     long out_off ARRC_PARAMS ARRC_OP_PARAMS) {
  long b = get_global_id(0);
  if (b >= nbins) return;
  T acc = part[b];
  for (long c = 1; c < copies; ++c) acc = arrc_op(acc, part[c * nbins + b]);
  ARRC_OUT(out_off + b, acc);
}
#endif
__kernel void arrc_hist_emit(long nbins, __global const T* acc, __global T* out, long out_off
                             ARRC_PARAMS) {
  long b = get_global_id(0);
  if (b < nbins) ARRC_OUT(out_off + b, acc[b]);
}
)CLC";

// The exact ordered histogram: sort (bin, index) pairs, find each bin's
// range, fold each range in index order (kSegReduceOffsets over arrc_load
// read through the permutation). KEYT: uint or ulong.
inline const char* kHistSorted = R"CLC(
__kernel void arrc_hist_keys(long n, long nbins, __global KEYT* keys, __global int* perm
                             ARRC_PARAMS) {
  long i = get_global_id(0);
  if (i >= n) return;
  long b = arrc_bin(i ARRC_ARGS);
  int in = b >= 0 && b < nbins;
  keys[i] = in ? (KEYT)b : (KEYT)nbins;  // out of range: last
  perm[i] = (int)i;
  if (!in) {  // not folded below, but evaluated (its errors too)
    T v = arrc_load(i ARRC_ARGS);
    (void)v;
  }
}
// CPU schedule of arrc_hist_bounds: work-item g walks the sorted keys of
// its chunk once; where the key changes at position i, the bins after the
// previous key up to this one start at i.
__kernel void arrc_chist_bounds(long n, long nbins, long chunk, __global const KEYT* keys,
                                __global long* offs) {
  long lo = get_global_id(0) * chunk, hi = min(n, lo + chunk);
  for (long i = lo; i < hi; ++i) {
    long prev = i == 0 ? -1 : (long)keys[i - 1], cur = (long)keys[i];
    for (long b = prev + 1; b <= cur; ++b) offs[b] = i;
  }
  if (hi == n)
    for (long b = (n > 0 ? (long)keys[n - 1] : -1) + 1; b <= nbins; ++b) offs[b] = n;
}
// offs[b] = the first position whose key is >= b, for b <= nbins.
__kernel void arrc_hist_bounds(long n, long nbins, __global const KEYT* keys, __global long* offs) {
  long b = get_global_id(0);
  if (b > nbins) return;
  long lo = 0, hi = n;
  while (lo < hi) {
    long m = (lo + hi) >> 1;
    if ((long)keys[m] < b) lo = m + 1; else hi = m;
  }
  offs[b] = lo;
}
)CLC";

// Walks over the expanded sequence of expand (primitives.h): element j
// belongs to the source i with ends[i-1] <= j < ends[i] (ends: inclusive
// scan of the sizes). A cursor holds (i, start, end) of the current source
// and steps forward element by element, skipping empty sources.
inline const char* kExpandWalk = R"CLC(
#ifndef ENDT
#define ENDT long  // the ends' type: uint where the total is below 2^32 (ExpandOffsets::end_bytes)
#endif
inline long arrc_exp_find(__global const ENDT* ends, long lo, long hi, long j) {
  while (lo < hi) {
    long m = (lo + hi) >> 1;
    if (ends[m] > j) hi = m; else lo = m + 1;
  }
  return lo;
}
typedef struct { long i, s, e; } arrc_exp_cursor;
// The cursor at element j, whose source lies in [lo, hi].
inline arrc_exp_cursor arrc_exp_at(__global const ENDT* ends, long lo, long hi, long j) {
  arrc_exp_cursor c;
  c.i = arrc_exp_find(ends, lo, hi, j);
  c.s = c.i > 0 ? ends[c.i - 1] : 0;
  c.e = ends[c.i];
  return c;
}
inline void arrc_exp_step(__global const ENDT* ends, arrc_exp_cursor* c, long j) {
  while (j >= c->e) {
    c->s = c->e;
    c->i++;
    c->e = ends[c->i];
  }
}
#define ARRC_EXP_ELEM(c, j) arrc_get((c).i, (j) - (c).s ARRC_ARGS)
)CLC";

// GPU walks. A work-group takes a contiguous range of `chunk` elements
// (a multiple of TILE, from the total ends[n-1], so the host need not read
// it); per tile, work-item lid takes the VT consecutive elements from
// base + lid * VT, finding the first one's source by binary search within
// the tile's sources (found once per tile into lsrc).
inline const char* kExpandGpu = R"CLC(
#define TILE (WG * VT)
inline long arrc_exp_chunk(long total) {
  long g = get_num_groups(0);
  long c = (total + g - 1) / g;
  return (c + TILE - 1) / TILE * TILE;
}
// The first i in [lo, hi] with ends[i] > j (ends[hi] > j), probing lo,
// lo + 1, lo + 3, lo + 7, ... before the binary search: a work-group's
// tiles are consecutive, so the next tile's sources are usually near.
inline long arrc_exp_gallop(__global const ENDT* ends, long lo, long hi, long j) {
  long prev = lo, p = lo, step = 1;
  while (p < hi && ends[p] <= j) {
    prev = p + 1;
    p = min(hi, p + step);
    step <<= 1;
  }
  return arrc_exp_find(ends, prev, p, j);
}
// Sources of the tile [base, tend) into lsrc[0..1] (ends with a barrier);
// from: a source at or before the tile's first (the previous tile's last).
inline void arrc_exp_tile_sources(__global const ENDT* ends, long n, long from, long base, long tend,
                                  __local long* lsrc) {
  int lid = get_local_id(0);
  if (lid == 0) lsrc[0] = arrc_exp_gallop(ends, from, n - 1, base);
  if (lid == (WG > 1 ? 1 : 0)) lsrc[1] = arrc_exp_gallop(ends, from, n - 1, tend - 1);
  barrier(CLK_LOCAL_MEM_FENCE);
}
#ifdef ARRC_EXP_REDUCE
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_expand_reduce(long n, __global const ENDT* ends, __global T* partial
                        ARRC_PARAMS ARRC_OP_PARAMS) {
  __local T sh[WG];
  __local long lsrc[2];
  int lid = get_local_id(0);
  long total = ends[n - 1], chunk = arrc_exp_chunk(total);
  long g0 = get_group_id(0) * chunk, g1 = min(total, g0 + chunk);
  T acc = ARRC_NE;
  long from = 0;
  for (long base = g0; base < g1; base += TILE) {
    long tend = min(g1, base + TILE);
    arrc_exp_tile_sources(ends, n, from, base, tend, lsrc);
    from = lsrc[1];
    long j0 = base + (long)lid * VT, j1 = min(tend, j0 + VT);
    T a = ARRC_NE;
    if (j0 < j1) {
      arrc_exp_cursor c = arrc_exp_at(ends, lsrc[0], lsrc[1], j0);
      a = ARRC_EXP_ELEM(c, j0);
      for (long j = j0 + 1; j < j1; ++j) {
        arrc_exp_step(ends, &c, j);
        a = arrc_op(a, ARRC_EXP_ELEM(c, j));
      }
    }
#ifdef ARRC_COMMUTATIVE
    acc = arrc_op(acc, a);
    barrier(CLK_LOCAL_MEM_FENCE);  // lsrc is written again
#else
    acc = arrc_op(acc, arrc_wg_reduce_ordered(a, sh ARRC_OP_ARGS));
#endif
  }
#ifdef ARRC_COMMUTATIVE
  acc = arrc_wg_reduce_ordered(acc, sh ARRC_OP_ARGS);
#endif
  if (lid == 0) partial[get_group_id(0)] = acc;
}
#endif
#ifdef ARRC_EXP_WRITE
// Load-balanced by merge path: the expansion is the merge of the elements
// (j = 0 .. total-1) with the sources' end markers (marker i after source
// i's elements: at position ends[i] + i), and tile t takes the TILE items
// [t * TILE, (t+1) * TILE) of that merge, elements and markers alike, so
// many empty sources cost as much as elements and one huge source is cut
// into tiles. arrc_expand_partition finds each tile's first marker (one
// binary search per tile, all at once); a tile then loads its markers'
// ends into local memory, each work-item finds its first item by a binary
// search there and walks VT items (an element: arrc_get, staged; a
// marker: the next source), and the tile's elements are stored in rows.
__kernel void arrc_expand_partition(long n, long total, long ntiles, __global const ENDT* ends,
                                    __global long* part) {
  long t = get_global_id(0);
  if (t > ntiles) return;
  long d = min(t * TILE, total + n);
  long lo = 0, hi = n;  // markers before d: sources i with ends[i] + i < d
  while (lo < hi) {
    long m = (lo + hi) >> 1;
    if (ends[m] + m < d) lo = m + 1; else hi = m;
  }
  part[t] = lo;
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_expand_write(long n, long total, __global const ENDT* ends, __global const long* part,
                       __global T* out, long out_off ARRC_PARAMS) {
  __local T vals[TILE];
  __local int rel[TILE + 1];  // ends of the tile's sources, less b0 (clamped to the tile)
  __local long lstart;        // where the tile's first source starts
  int lid = get_local_id(0);
  long t = get_group_id(0);
  long a0 = part[t], a1 = part[t + 1];
  long d0 = t * TILE, d1 = min(d0 + TILE, total + n);
  long b0 = d0 - a0, b1 = d1 - a1;  // the tile's elements
  int na = (int)(a1 - a0), nb = (int)(b1 - b0);
  for (int k = lid; k <= na; k += WG) {
    long s = a0 + k;
    rel[k] = s < n ? (int)(min((long)ends[s], b1) - b0) : nb;
  }
  if (lid == 0) lstart = a0 > 0 ? ends[a0 - 1] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int dd = min(lid * VT, na + nb);
  int lo = max(0, dd - nb), hi = min(dd, na);  // markers among the first dd items
  while (lo < hi) {
    int m = (lo + hi) >> 1;
    if (rel[m] + m < dd) lo = m + 1; else hi = m;
  }
  int k = lo, bi = dd - lo, stop = min(dd + VT, na + nb);
  long start = k == 0 ? lstart : b0 + rel[k - 1];
  for (int p = dd; p < stop; ++p) {
    if (bi < rel[k]) {
      long j = b0 + bi;
      vals[bi] = arrc_get(a0 + k, j - start ARRC_ARGS);
      bi++;
    } else {
      start = b0 + rel[k];
      k++;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = lid; e < nb; e += WG) ARRC_OUT(out_off + b0 + e, vals[e]);
}
#endif
#ifdef ARRC_EXP_COMPACT
// Kept elements per group (pass 1), then (after an inclusive scan of the
// counts into offs) each group writes its kept elements from offs[g-1]:
// per tile, each work-item's kept count, an exclusive work-group scan of
// those, and the values in order.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_expand_count(long n, __global const ENDT* ends, __global long* counts ARRC_PARAMS) {
  __local long sh[ARRC_SH];
  __local long lsrc[2];
  int lid = get_local_id(0);
  long total = ends[n - 1], chunk = arrc_exp_chunk(total);
  long g0 = get_group_id(0) * chunk, g1 = min(total, g0 + chunk);
  long kept = 0;
  long from = 0;
  for (long base = g0; base < g1; base += TILE) {
    long tend = min(g1, base + TILE);
    arrc_exp_tile_sources(ends, n, from, base, tend, lsrc);
    from = lsrc[1];
    long j0 = base + (long)lid * VT, j1 = min(tend, j0 + VT);
    if (j0 < j1) {
      arrc_exp_cursor c = arrc_exp_at(ends, lsrc[0], lsrc[1], j0);
      for (long j = j0; j < j1; ++j) {
        arrc_exp_step(ends, &c, j);
        kept += arrc_keep(j, ARRC_EXP_ELEM(c, j) ARRC_ARGS) != 0;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  long all;
  arrc_wg_scan_c(kept, sh, &all ARRC_OP_ARGS);
  if (lid == 0) counts[get_group_id(0)] = all;
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_expand_compact(long n, __global const ENDT* ends, __global const long* offs,
                         __global T* out, long out_off ARRC_PARAMS) {
  __local long sh[ARRC_SH];
  __local long lsrc[2];
  int lid = get_local_id(0);
  long total = ends[n - 1], chunk = arrc_exp_chunk(total);
  long g = get_group_id(0);
  long g0 = g * chunk, g1 = min(total, g0 + chunk);
  long run = out_off + (g > 0 ? offs[g - 1] : 0);
  long from = 0;
  for (long base = g0; base < g1; base += TILE) {
    long tend = min(g1, base + TILE);
    arrc_exp_tile_sources(ends, n, from, base, tend, lsrc);
    from = lsrc[1];
    long j0 = base + (long)lid * VT, j1 = min(tend, j0 + VT);
    T vals[VT];
    uint mask = 0;
    long kept = 0;
    if (j0 < j1) {
      arrc_exp_cursor c = arrc_exp_at(ends, lsrc[0], lsrc[1], j0);
      for (int k = 0; k < VT; ++k) {
        long j = j0 + k;
        if (j < j1) {
          arrc_exp_step(ends, &c, j);
          T v = ARRC_EXP_ELEM(c, j);
          if (arrc_keep(j, v ARRC_ARGS)) {
            vals[k] = v;
            mask |= 1u << k;
            kept++;
          }
        }
      }
    }
    long all;
    long p = run + arrc_wg_scan_c(kept, sh, &all ARRC_OP_ARGS);
    for (int k = 0; k < VT; ++k)
      if (mask & (1u << k)) { ARRC_OUT(p, vals[k]); p++; }
    run += all;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif
)CLC";

// CPU walks: work-item g takes the elements [g*chunk, (g+1)*chunk) and
// walks them source by source, an inner loop per source (which compilers
// vectorise), no search but the first.
inline const char* kExpandCpu = R"CLC(
inline long arrc_cexp_chunk(long total, long nchunks) { return (total + nchunks - 1) / nchunks; }
// The host defines ARRC_CEXP_LOOP_HINT (a loop pragma for the walk's inner
// loop) where it pays: expand_reduce with a built-in operator on scalars.
#ifndef ARRC_CEXP_LOOP_HINT
#define ARRC_CEXP_LOOP_HINT
#endif
// Calls BODY(j, i, k) for the elements [lo, hi) of the expansion, in order.
// BEGIN and END run before and after each source's run of items.
#define ARRC_CEXP_WALK_RUNS(lo, hi, BEGIN, BODY, END)                         \
  if ((lo) < (hi)) {                                                          \
    long arrc_i = arrc_exp_find(ends, 0, n - 1, (lo));                        \
    long arrc_j = (lo);                                                       \
    while (arrc_j < (hi)) {                                                   \
      long arrc_s = arrc_i > 0 ? ends[arrc_i - 1] : 0;                        \
      long arrc_e = min((long)ends[arrc_i], (hi));                            \
      BEGIN                                                                   \
      ARRC_CEXP_LOOP_HINT                                                     \
      for (long arrc_k = arrc_j - arrc_s; arrc_k < arrc_e - arrc_s; ++arrc_k) \
        BODY(arrc_s + arrc_k, arrc_i, arrc_k)                                 \
      END                                                                     \
      arrc_j = arrc_e > arrc_j ? arrc_e : arrc_j;                             \
      arrc_i++;                                                               \
    }                                                                         \
  }
#define ARRC_CEXP_WALK(lo, hi, BODY) ARRC_CEXP_WALK_RUNS(lo, hi, , BODY, )
#ifdef ARRC_EXP_REDUCE
__kernel void arrc_cexpand_reduce(long n, long nchunks, __global const ENDT* ends,
                                  __global T* partial ARRC_PARAMS ARRC_OP_PARAMS) {
  long total = ends[n - 1], chunk = arrc_cexp_chunk(total, nchunks);
  long lo = get_global_id(0) * chunk, hi = min(total, lo + chunk);
  T arrc_acc = ARRC_NE, arrc_run;
  // each run folded from NE, then into the chunk's value: the run's
  // vectorised fold ends in a horizontal reduction, which then does not
  // wait for the previous run's (runs of tens of items were latency-bound)
#define ARRC_CEXP_RUN_BEGIN arrc_run = ARRC_NE;
#define ARRC_CEXP_FOLD(j, i, k) arrc_run = arrc_op(arrc_run, arrc_get(i, k ARRC_ARGS));
#define ARRC_CEXP_RUN_END arrc_acc = arrc_op(arrc_acc, arrc_run);
  ARRC_CEXP_WALK_RUNS(lo, hi, ARRC_CEXP_RUN_BEGIN, ARRC_CEXP_FOLD, ARRC_CEXP_RUN_END)
  partial[get_global_id(0)] = arrc_acc;
}
#endif
#ifdef ARRC_EXP_WRITE
__kernel void arrc_cexpand_write(long n, long nchunks, __global const ENDT* ends, __global T* out,
                                 long out_off ARRC_PARAMS) {
  long total = ends[n - 1], chunk = arrc_cexp_chunk(total, nchunks);
  long lo = get_global_id(0) * chunk, hi = min(total, lo + chunk);
#define ARRC_CEXP_STORE(j, i, k) ARRC_OUT(out_off + (j), arrc_get(i, k ARRC_ARGS));
  ARRC_CEXP_WALK(lo, hi, ARRC_CEXP_STORE)
}
#endif
#ifdef ARRC_EXP_COMPACT
__kernel void arrc_cexpand_count(long n, long nchunks, __global const ENDT* ends,
                                 __global long* counts ARRC_PARAMS) {
  long total = ends[n - 1], chunk = arrc_cexp_chunk(total, nchunks);
  long lo = get_global_id(0) * chunk, hi = min(total, lo + chunk);
  long arrc_c = 0;
#define ARRC_CEXP_COUNT(j, i, k) arrc_c += arrc_keep(j, arrc_get(i, k ARRC_ARGS) ARRC_ARGS) != 0;
  ARRC_CEXP_WALK(lo, hi, ARRC_CEXP_COUNT)
  counts[get_global_id(0)] = arrc_c;
}
__kernel void arrc_cexpand_compact(long n, long nchunks, __global const ENDT* ends,
                                   __global const long* offs, __global T* out, long out_off
                                   ARRC_PARAMS) {
  long total = ends[n - 1], chunk = arrc_cexp_chunk(total, nchunks);
  long lo = get_global_id(0) * chunk, hi = min(total, lo + chunk);
  long arrc_p = out_off + offs[get_global_id(0)];
#define ARRC_CEXP_KEEP(j, i, k)                            \
  {                                                        \
    T arrc_v = arrc_get(i, k ARRC_ARGS);                   \
    if (arrc_keep(j, arrc_v ARRC_ARGS)) {                  \
      ARRC_OUT(arrc_p, arrc_v);                            \
      arrc_p++;                                            \
    }                                                      \
  }
  ARRC_CEXP_WALK(lo, hi, ARRC_CEXP_KEEP)
}
#endif
)CLC";


}  // namespace arrc::detail
