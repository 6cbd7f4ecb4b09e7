// Alternative forms (bench/forms/README.md): the math built-ins, float and double, one call per element.
// Each export with a bench block is timed by bench/run_forms.sh.
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] exp_float(float[[*]] xs) = [exp(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] exp_double(double[[*]] xs) = [exp(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] log_float(float[[*]] xs) = [log(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] log_double(double[[*]] xs) = [log(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] erf_float(float[[*]] xs) = [erf(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] erf_double(double[[*]] xs) = [erf(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] sqrt_float(float[[*]] xs) = [sqrt(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] sqrt_double(double[[*]] xs) = [sqrt(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] sin_float(float[[*]] xs) = [sin(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] sin_double(double[[*]] xs) = [sin(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] cos_float(float[[*]] xs) = [cos(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] cos_double(double[[*]] xs) = [cos(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] tan_float(float[[*]] xs) = [tan(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] tan_double(double[[*]] xs) = [tan(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] atan2_float(float[[*]] xs) = [atan2(x, 1.5f) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] atan2_double(double[[*]] xs) = [atan2(x, 1.5) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] pow_float(float[[*]] xs) = [pow(x, 1.5f) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] pow_double(double[[*]] xs) = [pow(x, 1.5) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] floor_float(float[[*]] xs) = [floor(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] floor_double(double[[*]] xs) = [floor(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export float[[*]] round_float(float[[*]] xs) = [round(x) | x <- xs];
// == bench
// sizes: n=10^6
// gen: [n]:1..2
export double[[*]] round_double(double[[*]] xs) = [round(x) | x <- xs];
