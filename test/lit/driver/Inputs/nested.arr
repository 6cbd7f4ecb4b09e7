// Inputs for run-nested.test.
export int[[*]] dot_row(int[[*,*]] m, int[[*]] v) = [dot(m[i, :], v) | i <- iota(m.size(0))];
export int[[*]] median(int[[*,*]] m) = [(let s = sort(m[i, :]) in s[length(s) / 2]) | i <- iota(m.size(0))];
