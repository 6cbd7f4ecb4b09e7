// arrc runtime: errors.
//
// Every failure the runtime reports is an arrc::Error (a std::runtime_error)
// whose what() names the cause: OpenCL build logs, out-of-memory, bad device
// selection, and the device-side bounds/shape errors raised by kernels
// through the context's error buffer (see kernel_prelude() in context.h).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace arrc {

class Error : public std::runtime_error {
public:
  explicit Error(const std::string& msg) : std::runtime_error(notes_last(msg)) {}

  // A position inside a stdlib or imported function carries notes after the
  // user's call site: "file:l:c\nnote: in take at prelude.arr:18\n", so a
  // message built as position + ": " + text reads "file:l:c\nnote: ...\n: text".
  // The notes move after the text: "file:l:c: text\nnote: in take at ...".
  static std::string notes_last(const std::string& msg) {
    size_t nl = msg.find('\n'), end = msg.find("\n: ");
    if (nl == std::string::npos || end == std::string::npos || end < nl ||
        msg.compare(nl + 1, 6, "note: ") != 0)
      return msg;
    return msg.substr(0, nl) + msg.substr(end + 1) + "\n" + msg.substr(nl + 1, end - nl - 1);
  }
};

// Error codes written by kernels into the error buffer (field 0) and used by
// host-side checks. The numeric values are part of the kernel ABI: they are
// also #defined in kernel_prelude() as ARRC_ERR_*.
enum class ErrorCode : int32_t {
  none = 0,
  bounds = 1,        // index `index` out of bounds for axis `axis` of size `extent`
  shape = 2,         // shape mismatch: `index` vs `extent` (axis = axis)
  zip = 3,           // zip of arrays of unequal sizes `index` and `extent`
  empty = 4,         // maximum/minimum (or another reduction without neutral) of an empty array
  section = 5,       // section bound `index` out of range for axis `axis` of size `extent`
  negative_size = 6, // negative size `index` (e.g. iota(-1), replicate)
  generic = 7,       // generic runtime error (`index` and `extent` printed as values)
};

// Formats an error message the way generated code reports it:
//   "file:line:col: index 7 out of bounds for axis 0 of size 5"
// `pos` is the "file:line:col" text (may be empty: then no prefix is printed).
std::string format_error(ErrorCode code, const std::string& pos, int64_t index,
                         int64_t extent, int64_t axis);

// Convenience constructors for host-side checks (same formatting).
inline Error bounds_error(const std::string& pos, int64_t index, int64_t extent,
                          int64_t axis) {
  return Error(format_error(ErrorCode::bounds, pos, index, extent, axis));
}
inline Error shape_error(const std::string& pos, int64_t a, int64_t b,
                         int64_t axis = 0) {
  return Error(format_error(ErrorCode::shape, pos, a, b, axis));
}

// Human-readable name of an OpenCL error code ("CL_OUT_OF_RESOURCES").
const char* cl_error_name(int32_t err);

// Throws arrc::Error("<what>: <CL error name> (<code>)") when err != CL_SUCCESS.
// Allocation failures become "out of device memory: <what> ...".
void check_cl(int32_t err, const char* what);

}  // namespace arrc
