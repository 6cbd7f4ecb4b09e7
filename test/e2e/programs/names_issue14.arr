// Issue 14: user names that C macros, C++ keywords and OpenCL C names would
// capture reach neither the header nor the kernels unmangled
// (docs/codegen.md, "Names").

// == test
// in: [1.0, 2.0] [10.0] 3.0 4
// out: 23.0
export double f(double[[*]] EOF, double[[*]] errno, double assert, int stdout) = sum([x * assert | x <- EOF]) + double(stdout) + sum(errno);
// == test
// in: [1.5, 2.5]
// out: 4.0
export double g(double[[*]] NULL) = sum(NULL);

type float4 = double;
def float4 get_global_id(float4 kernel, float4 global) = kernel * global;
// == test
// in: [1.0, 2.0] 2.0 1
// out: [3.0, 6.0]
export double[[*]] INFINITY(double[[*]] __global, double M_PI_2, int CL_VERSION_1) =
  [let local = get_global_id(private, M_PI_2) in local + double(CL_VERSION_1) * private | private <- __global];
// == test
// in: 5
// out: 6
export int class(int arrc_err) = let ctx = arrc_err + 1 in ctx;
