// Futhark-style segmented helpers (LANGUAGE.md §7), written with the
// intrinsics expand-by-comprehension and segmented_scan.

// repl_iota([2, 3, 1]) == [0, 0, 1, 1, 1, 2]: i repeated reps[i] times.
def int[[*]] repl_iota(int[[*]] reps) = [i | i <- iota(length(reps)), _k <- iota(reps[i])];

// segm_iota([true, false, false, true, false]) == [0, 1, 2, 0, 1]: the index
// of each element within its segment (segments start where flags is true).
def int[[*]] segm_iota(bool[[*]] flags) =
  [k - 1 | k <- segmented_scan((+), 0, flags, replicate(length(flags), 1))];
