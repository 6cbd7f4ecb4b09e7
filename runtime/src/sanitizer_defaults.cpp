// Compiled only in an ARRC_SANITIZE build: the suppressions of the OpenCL
// driver's own reports (cmake/sanitizers/lsan.supp, tsan.supp), applied by
// every program that links libarrc_runtime without any environment variable.
// The macro holds that file's text (runtime/CMakeLists.txt).
#ifdef ARRC_LSAN_SUPPRESSIONS
extern "C" const char *__lsan_default_suppressions() { return ARRC_LSAN_SUPPRESSIONS; }
#endif
#ifdef ARRC_TSAN_SUPPRESSIONS
extern "C" const char *__tsan_default_suppressions() { return ARRC_TSAN_SUPPRESSIONS; }
#endif
