// Inputs for run-nested.test.
export int[[*]] take_row(int[[*,*]] m, int n) = [sum(take(n, m[i, :])) | i <- iota(m.size(0))];
export int[[*]] median(int[[*,*]] m) = [(let s = sort(m[i, :]) in s[length(s) / 2]) | i <- iota(m.size(0))];
