// Private: OpenCL C templates of the radix sort (sort.cpp).
//
// The host defines: KT (key type), KU (its unsigned bits type), NPASS (digit
// passes = bytes of the key), arrc_kbits(k) (order-preserving unsigned
// bits), RADIX 256 (8-bit digits), VALS (value type) when values move along,
// and for the GPU schedule WG, VT, LBYTES, STAT/STAT_SHIFT (status words).
#pragma once

namespace arrc::detail {

// Shared by both schedules.
inline const char* kSortCommon = R"CLC(
#define RADIX 256
inline uint arrc_digit(KT k, int shift) { return (uint)((arrc_kbits(k) >> shift) & (KU)255); }
)CLC";

// GPU schedule: one sweep per digit (after Adinets & Merrill, "Onesweep",
// 2022). An upfront pass counts the digits of every pass at once
// (arrc_sort_hist) and arrc_sort_bases scans each pass's 256 counts into the
// digits' first positions. Then one kernel per digit (arrc_sort_pass): each
// tile of WG * VT keys ranks its keys by digit, stable, publishes its digit
// counts, finds for each digit the count of that digit in all earlier tiles
// by decoupled look-back over their published counts, and writes its keys
// (and values) to their places.
//
// Ranking. Keys are loaded warp-striped (warp w holds a contiguous run of
// 32 * VT keys; item j of lane l is key j * 32 + l of the run), so going
// through the items j = 0.. and lanes in order is going through the keys in
// order. For each item, the lanes holding the same digit find each other
// (ballots on NVIDIA; compared through local memory elsewhere), the
// lowest of them bumps the warp's counter of that digit by their number and
// each takes the old count plus the number of peers below it: its rank
// among the warp's keys of that digit. The warps' counters are then scanned
// warp by warp for each digit (digit d by work-item d), giving the tile's
// count of d; the counts are scanned across digits into the tile's local
// digit starts, and each key goes to the local tile at digit start + earlier
// warps' count + rank: the tile sorted by digit, stable.
//
// Look-back. status[t * 256 + d] is a word (flag << STAT_SHIFT | count):
// flag 1 = the count of d in tile t alone, 2 = the count in tiles 0..t; 0 =
// nothing yet. Work-item d walks back from tile t-1 adding counts until it
// meets a flag 2, then publishes tile t's inclusive count. The words fit
// the count with the flag (n < 2^30 in 32-bit words, else 64-bit). Tiles
// take their ids from a ticket (meta[NPASS * 256 + pass]), so every tile waited for has
// started. Each pass zeroes its tiles' rows of the other status buffer,
// which the next pass uses; the host zeroes the first one.
inline const char* kSortGpu = R"CLC(
#define TILE (WG * VT)
#define NWARP (WG / 32)
#define STAT_MASK ((((STAT)1) << STAT_SHIFT) - (STAT)1)
#ifndef ARRC_SORT_GROUP_ORDER
#define ARRC_SORT_GROUP_ORDER 0
#endif
#ifndef LBW
#define LBW 4
#endif

#if defined(ARRC_NV) && !defined(ARRC_SORT_NO_MATCH)
// The lanes of the warp whose v equals this lane's.
#ifdef ARRC_SORT_MATCH_ANY
// match.any (sm_70 on)
inline uint arrc_match_any(uint v, __local uint* scratch) {
  uint r;
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  return r;
}
#else
// v < 512 (a digit, or RADIX for no key): one ballot per bit, each lane
// keeping the lanes that agree with it on that bit. Nine ballots cost less
// than one match.any (H200, 10^8 int keys: 2.93 ms against 4.09).
inline uint arrc_match_any(uint v, __local uint* scratch) {
  uint r = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < 9; ++b) {
    uint bit = (v >> b) & 1u;
    uint m = arrc_nv_ballot((int)bit);
    r &= bit ? m : ~m;
  }
  return r;
}
#endif
#define ARRC_WARP_SYNC() asm volatile("bar.warp.sync 0xffffffff;" ::: "memory")
#define ARRC_SORT_SCRATCH 1
#else
// Warps emulated by groups of 32 consecutive work-items (every work-item of
// the work-group calls these the same number of times).
inline uint arrc_match_any(uint v, __local uint* scratch) {
  int lid = get_local_id(0), wb = lid & ~31;
  scratch[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint m = 0;
  for (int l = 0; l < 32; ++l) m |= (uint)(scratch[wb + l] == v) << l;
  barrier(CLK_LOCAL_MEM_FENCE);
  return m;
}
#define ARRC_WARP_SYNC() barrier(CLK_LOCAL_MEM_FENCE)
#define ARRC_SORT_SCRATCH WG
#endif
#if STAT_SHIFT == 62
#define ARRC_STAT_XCHG(p, v) atom_xchg((p), (v))
#define ARRC_STAT_ATOMIC_PEEK(p) atom_add((p), (STAT)0)
#else
#define ARRC_STAT_XCHG(p, v) atomic_xchg((p), (v))
#define ARRC_STAT_ATOMIC_PEEK(p) atomic_add((p), (STAT)0)
#endif
#ifdef ARRC_NV
#define ARRC_STAT_PEEK(p) (*(volatile __global STAT*)(p))
#else
#define ARRC_STAT_PEEK(p) ARRC_STAT_ATOMIC_PEEK(p)
#endif

// hist[p * 256 + d] += number of keys whose digit p is d.
#if defined(ARRC_NV)
// NVIDIA: whole warps step together (no lane leaves the loop early); a
// digit that all of a warp's keys share is added once by lane 0 (a sorted
// or narrow-range input has whole passes of one digit, which would
// otherwise make 32 lanes hit one counter), any other one by one atomic
// per key.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_sort_hist(long n, __global const KT* keys, __global uint* hist) {
  __local uint lh[NPASS * RADIX];
  int lid = get_local_id(0), lane = lid & 31;
  for (int e = lid; e < NPASS * RADIX; e += WG) lh[e] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  long G = get_global_size(0);
  for (long i0 = get_global_id(0); i0 - lane < n; i0 += 4 * G) {
    KU b[4];
    int ok[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      long i = i0 + u * G;
      ok[u] = i < n;
      b[u] = ok[u] ? arrc_kbits(keys[i]) : 0;
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      uint valid = arrc_nv_ballot(ok[u]);
      if (valid == 0) break;  // the same for every lane
#pragma unroll
      for (int p = 0; p < NPASS; ++p) {
        uint d = (uint)((b[u] >> (8 * p)) & (KU)255);
        uint d0 = arrc_nv_shidx(d, 0);  // lane 0 is valid whenever any lane is
        if (arrc_nv_ballot(!ok[u] || d == d0) == 0xffffffffu) {
          if (lane == 0) atomic_add(&lh[p * RADIX + d0], popcount(valid));
        } else if (ok[u]) {
          atomic_inc(&lh[p * RADIX + d]);
        }
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = lid; e < NPASS * RADIX; e += WG)
    if (lh[e]) atomic_add(&hist[e], lh[e]);
}
#else
// Each work-item counts runs of equal digits before adding them (sorted or
// equal keys cost few atomics).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_sort_hist(long n, __global const KT* keys, __global uint* hist) {
  __local uint lh[NPASS * RADIX];
  int lid = get_local_id(0);
  for (int e = lid; e < NPASS * RADIX; e += WG) lh[e] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint rd[NPASS], rc[NPASS];
  for (int p = 0; p < NPASS; ++p) { rd[p] = 0; rc[p] = 0; }
  long G = get_global_size(0);
  for (long i0 = get_global_id(0); i0 < n; i0 += 4 * G) {
    KU b[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      long i = i0 + u * G;
      b[u] = i < n ? arrc_kbits(keys[i]) : 0;
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      if (i0 + u * G >= n) break;
      for (int p = 0; p < NPASS; ++p) {
        uint d = (uint)((b[u] >> (8 * p)) & (KU)255);
        if (d != rd[p]) {
          if (rc[p]) atomic_add(&lh[p * RADIX + rd[p]], rc[p]);
          rd[p] = d;
          rc[p] = 0;
        }
        rc[p]++;
      }
    }
  }
  for (int p = 0; p < NPASS; ++p)
    if (rc[p]) atomic_add(&lh[p * RADIX + rd[p]], rc[p]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = lid; e < NPASS * RADIX; e += WG)
    if (lh[e]) atomic_add(&hist[e], lh[e]);
}
#endif

// bases[p * 256 + d] = number of keys whose digit p is below d (work-group p).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_sort_bases(__global const uint* hist, __global uint* bases) {
  __local int sums[ARRC_SH];
  int lid = get_local_id(0), p = get_group_id(0);
  int total;
  int ex = arrc_wg_scan_i(lid < RADIX ? (int)hist[p * RADIX + lid] : 0, sums, &total);
  if (lid < RADIX) bases[p * RADIX + lid] = (uint)ex;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void arrc_sort_pass(long n, int pass, __global const KT* kin, __global KT* kout,
                    __global const uint* bases, __global uint* meta, __global STAT* status,
                    __global STAT* status_next
#ifdef VALS
                    , __global const VALS* vin, __global VALS* vout
#endif
                    ) {
  __local ulong lbuf[(TILE * LBYTES + 7) / 8];
  __local uint wc[NWARP * RADIX];
  __local int lstart[RADIX], gofs[RADIX];
  __local int sums[ARRC_SH];
  __local uint scratch[ARRC_SORT_SCRATCH];
  __local int ltile;
  __local KT* lk = (__local KT*)lbuf;
  int lid = get_local_id(0), lane = lid & 31, w = lid >> 5;
  int shift = 8 * pass;
#if defined(ARRC_NV) && ARRC_SORT_GROUP_ORDER
  int t = get_group_id(0);
#else
  if (lid == 0) ltile = (int)atomic_inc(&meta[NPASS * RADIX + pass]);
#endif
  for (int e = lid; e < NWARP * RADIX; e += WG) wc[e] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
#if !(defined(ARRC_NV) && ARRC_SORT_GROUP_ORDER)
  int t = ltile;
#endif
  long base = (long)t * TILE;
  int tcount = (int)min((long)TILE, n - base);
  for (int e = lid; e < RADIX; e += WG) status_next[(long)t * RADIX + e] = 0;
  long wbase = base + (long)w * 32 * VT;
  KT k[VT];
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    long i = wbase + j * 32 + lane;
    if (i < n) k[j] = kin[i];
  }
  uint rk[VT];
  uint below = (1u << lane) - 1u;
  int cnt = 0;
  // rank of each key among the warp's keys of its digit
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    uint d = wbase + j * 32 + lane < n ? arrc_digit(k[j], shift) : RADIX;
    uint peers = arrc_match_any(d, scratch);
    __local uint* c = &wc[w * RADIX + (d & (RADIX - 1))];
    uint old = d < RADIX ? *c : 0;
    ARRC_WARP_SYNC();
    if (d < RADIX && (peers & below) == 0) *c = old + popcount(peers);
    ARRC_WARP_SYNC();
    rk[j] = old + popcount(peers & below);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // digit lid: the earlier warps' counts, the tile's count (published)
  if (lid < RADIX) {
    for (int v = 0; v < NWARP; ++v) {
      uint x = wc[v * RADIX + lid];
      wc[v * RADIX + lid] = (uint)cnt;
      cnt += (int)x;
    }
    ARRC_STAT_XCHG(&status[(long)t * RADIX + lid], ((STAT)(t == 0 ? 2 : 1) << STAT_SHIFT) | (STAT)cnt);
  }
  int total;
  int ls = arrc_wg_scan_i(lid < RADIX ? cnt : 0, sums, &total);
  if (lid < RADIX) lstart[lid] = ls;
  barrier(CLK_LOCAL_MEM_FENCE);
  // keys to their places in the tile
#pragma unroll
  for (int j = 0; j < VT; ++j)
    if (wbase + j * 32 + lane < n) {
      uint d = arrc_digit(k[j], shift);
      rk[j] += (uint)lstart[d] + wc[w * RADIX + d];
      lk[rk[j]] = k[j];
    }
  // look-back: keys of digit lid in the tiles before t
  if (lid < RADIX) {
    int ex = 0;
    for (int q = t - 1; q >= 0;) {
      // LBW earlier tiles' words at once (independent loads: one wait
      // instead of LBW), taken nearest first up to an inclusive count or a
      // tile not yet published (polled again from there)
      STAT sw[LBW];
#pragma unroll
      for (int u = 0; u < LBW; ++u)
        sw[u] = q - u >= 0 ? ARRC_STAT_PEEK(&status[(long)(q - u) * RADIX + lid])
                           : ((STAT)2 << STAT_SHIFT);  // before tile 0: an inclusive 0
      int u = 0;
      for (; u < LBW; ++u) {
        uint f = (uint)(sw[u] >> STAT_SHIFT);
        if (f == 0) break;
        ex += (int)(sw[u] & STAT_MASK);
        if (f == 2) break;
      }
      if (u < LBW && (uint)(sw[u] >> STAT_SHIFT) == 2) break;
      q -= u;
    }
    if (t > 0)
      ARRC_STAT_XCHG(&status[(long)t * RADIX + lid], ((STAT)2 << STAT_SHIFT) | (STAT)(ex + cnt));
    gofs[lid] = (int)bases[pass * RADIX + lid] + ex - ls;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // the tile in order: runs of one digit go to consecutive places
  uint dg[VT];
#pragma unroll
  for (int r = 0; r < VT; ++r) {
    int i = r * WG + lid;
    if (i < tcount) {
      KT key = lk[i];
      uint d = arrc_digit(key, shift);
      kout[gofs[d] + i] = key;
      dg[r] = d;
    }
  }
#ifdef VALS
  barrier(CLK_LOCAL_MEM_FENCE);
  __local VALS* lv = (__local VALS*)lbuf;
#pragma unroll
  for (int j = 0; j < VT; ++j) {
    long i = wbase + j * 32 + lane;
    if (i < n) lv[rk[j]] = vin[i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int r = 0; r < VT; ++r) {
    int i = r * WG + lid;
    if (i < tcount) vout[gofs[dg[r]] + i] = lv[i];
  }
#endif
}
)CLC";

// CPU schedule: LSD passes over contiguous chunks, one work-item each.
// Per pass: each chunk counts its digits (arrc_csort_count; the first pass
// takes its counts from the upfront histogram arrc_csort_hist), one
// work-item turns the (digit, chunk) counts into each chunk's first place
// per digit (arrc_csort_offsets), and each chunk moves its keys to their
// places in order (arrc_csort_scatter): stable.
inline const char* kSortCpu = R"CLC(
// parts[(c * NPASS + p) * 256 + d] = keys of chunk c whose digit p is d.
__kernel void arrc_csort_hist(long n, long chunk, __global const KT* keys, __global uint* parts) {
  long arrc_c = get_global_id(0);
  long arrc_lo = arrc_c * chunk, arrc_hi = min(n, arrc_lo + chunk);
  uint arrc_h[NPASS * RADIX];
  for (int e = 0; e < NPASS * RADIX; ++e) arrc_h[e] = 0;
  for (long i = arrc_lo; i < arrc_hi; ++i) {
    KU b = arrc_kbits(keys[i]);
    for (int p = 0; p < NPASS; ++p) arrc_h[p * RADIX + (uint)((b >> (8 * p)) & (KU)255)]++;
  }
  __global uint* arrc_out = parts + arrc_c * NPASS * RADIX;
  for (int e = 0; e < NPASS * RADIX; ++e) arrc_out[e] = arrc_h[e];
}
// counts[c * 256 + d] = keys of chunk c whose digit (at shift) is d.
__kernel void arrc_csort_count(long n, long chunk, int shift, __global const KT* keys,
                               __global uint* counts) {
  long arrc_c = get_global_id(0);
  long arrc_lo = arrc_c * chunk, arrc_hi = min(n, arrc_lo + chunk);
  uint arrc_h[RADIX];
  for (int d = 0; d < RADIX; ++d) arrc_h[d] = 0;
  for (long i = arrc_lo; i < arrc_hi; ++i) arrc_h[arrc_digit(keys[i], shift)]++;
  for (int d = 0; d < RADIX; ++d) counts[arrc_c * RADIX + d] = arrc_h[d];
}
// offs[c * 256 + d] = keys before the first key of digit d of chunk c in
// the pass's output: all keys of smaller digits, then digit d of earlier
// chunks. counts[c * cstride + coff + d] is chunk c's count of digit d.
__kernel void arrc_csort_offsets(long nchunks, __global const uint* counts, long cstride, long coff,
                                 __global uint* offs) {
  uint arrc_run = 0;
  for (int d = 0; d < RADIX; ++d)
    for (long c = 0; c < nchunks; ++c) {
      offs[c * RADIX + d] = arrc_run;
      arrc_run += counts[c * cstride + coff + d];
    }
}
__kernel void arrc_csort_scatter(long n, long chunk, int shift, __global const KT* kin,
                                 __global KT* kout, __global const uint* offs
#ifdef VALS
                                 , __global const VALS* vin, __global VALS* vout
#endif
                                 ) {
  long arrc_c = get_global_id(0);
  long arrc_lo = arrc_c * chunk, arrc_hi = min(n, arrc_lo + chunk);
  uint arrc_o[RADIX];
  for (int d = 0; d < RADIX; ++d) arrc_o[d] = offs[arrc_c * RADIX + d];
  for (long i = arrc_lo; i < arrc_hi; ++i) {
    KT k = kin[i];
    uint p = arrc_o[arrc_digit(k, shift)]++;
    kout[p] = k;
#ifdef VALS
    vout[p] = vin[i];
#endif
  }
}
)CLC";

}  // namespace arrc::detail
