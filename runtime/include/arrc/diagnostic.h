// arrc runtime: runtime errors shown the way the compiler shows its own.
//
// An arrc::Error raised by a generated function names the source position of
// the failing expression: "file:line:col: index 7 out of bounds for axis 0 of
// size 5". arrc::diagnostic() turns that into the compiler's format, with the
// source line and a caret when the .arr file can be read from here:
//
//   examples/errors.arr:9:39: error: index 7 out of bounds for axis 0 of size 5
//   export int get(int[[*]] xs, int i) = xs[i];
//                                        ^
//
//   try { ... } catch (const arrc::Error& e) { std::cerr << arrc::diagnostic(e.what()); }
//
// Header-only: no OpenCL needed.
#pragma once

#include <cctype>
#include <cstddef>
#include <fstream>
#include <string>

namespace arrc {

// The position at the start of a runtime error message.
struct SourcePosition {
  std::string file;
  int line = 0, col = 0;
  size_t length = 0;  // characters of "file:line:col: " (0: the message has no position)
};

// Finds a leading "file:line:col: " (the file may itself contain ':').
inline SourcePosition parse_position(const std::string& msg) {
  SourcePosition p;
  size_t end = msg.find(": ");
  while (end != std::string::npos) {
    // msg[0, end) must end with ":<digits>:<digits>"
    size_t c2 = msg.rfind(':', end - 1);
    size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : msg.rfind(':', c2 - 1);
    auto digits = [&](size_t b, size_t e) {
      if (b >= e) return false;
      for (size_t k = b; k < e; ++k)
        if (!std::isdigit(static_cast<unsigned char>(msg[k]))) return false;
      return true;
    };
    if (c1 != std::string::npos && c1 > 0 && digits(c1 + 1, c2) && digits(c2 + 1, end)) {
      p.file = msg.substr(0, c1);
      p.line = std::stoi(msg.substr(c1 + 1, c2 - c1 - 1));
      p.col = std::stoi(msg.substr(c2 + 1, end - c2 - 1));
      p.length = end + 2;
      return p;
    }
    end = msg.find(": ", end + 2);
    if (end != std::string::npos && msg.find('\n') < end) break;  // positions are on the first line
  }
  return p;
}

// Line `line` (1-based) of `file`, without its newline; false when unreadable.
inline bool read_source_line(const std::string& file, int line, std::string& out) {
  if (line < 1) return false;
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::string s;
  for (int k = 1; std::getline(in, s); ++k)
    if (k == line) {
      if (!s.empty() && s.back() == '\r') s.pop_back();
      out = s;
      return true;
    }
  return false;
}

// "file:line:col: error: message", then the source line and a caret under
// column `col` when the file is readable (tabs kept so the caret lines up).
// A message without a position becomes "<fallback>: error: message" (or
// "error: message" when fallback is empty). Ends with a newline.
inline std::string diagnostic(const std::string& message, const std::string& fallback = "") {
  SourcePosition p = parse_position(message);
  if (p.length == 0) return (fallback.empty() ? "" : fallback + ": ") + "error: " + message + "\n";
  // Lines after the first (notes: "note: in take at prelude.arr:18") follow the caret.
  size_t nl = message.find('\n', p.length);
  std::string notes = nl == std::string::npos ? "" : message.substr(nl + 1) + "\n";
  std::string out = message.substr(0, p.length) + "error: " + message.substr(p.length, nl == std::string::npos ? std::string::npos : nl - p.length) + "\n";
  std::string text;
  if (!read_source_line(p.file, p.line, text) || text.size() > 400) return out + notes;
  std::string caret;
  for (size_t i = 0; i + 1 < static_cast<size_t>(p.col) && i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // one caret column per UTF-8 code point
    caret += c == '\t' ? '\t' : ' ';
  }
  return out + text + "\n" + caret + "^\n" + notes;
}

}  // namespace arrc
