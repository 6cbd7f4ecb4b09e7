// QA held-out: segmented operations when the first flag is false (the first segment
// starts at 0 anyway, as in Futhark), empty inputs, repl_iota with empty repeats.

// == test
// in: [false, false, true] [1, 2, 3]
// out: ([1, 3, 3], [3, 3], [0, 1, 0], [2, 2])
// in: [] []
// out: ([], [], [], [2, 2])
export (int[[*]], int[[*]], int[[*]], int[[*]]) s(bool[[*]] fl, int[[*]] xs) = (segmented_scan((+), 0, fl, xs), segmented_reduce((+), 0, fl, xs), segm_iota(fl), repl_iota([0, 0, 2]));

