// Compiles the public headers with -Wall -Wextra -Wpedantic -Werror.
#include <arrc/runtime.h>

int arrc_header_check() {
  arrc::ElemType t = arrc::ElemType::of<float>();
  return static_cast<int>(t.size);
}
