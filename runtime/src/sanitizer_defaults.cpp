// Compiled only in an ARRC_SANITIZE build: the LeakSanitizer suppressions of
// cmake/sanitizers/lsan.supp (the OpenCL driver's own allocations), applied
// by every program that links libarrc_runtime without any environment
// variable. ARRC_LSAN_SUPPRESSIONS is that file's text (runtime/CMakeLists.txt).
extern "C" const char *__lsan_default_suppressions() { return ARRC_LSAN_SUPPRESSIONS; }
