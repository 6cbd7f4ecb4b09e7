// Source files and positions. Every AST node carries a Span so that any later
// stage (type checker, lowering, runtime bounds errors) can name a position.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace arrc {

// 1-based line and column of a character in a file.
struct Pos {
  int line = 0;
  int col = 0;
};

// A half-open region [begin, end) of one source file. `file` is an index into
// the SourceManager (-1 for compiler-made nodes with no source).
struct Span {
  int file = -1;
  Pos begin;
  Pos end;
  bool valid() const { return file >= 0 && begin.line > 0; }
};

// Owns the text of every loaded file, so diagnostics can print source lines.
class SourceManager {
public:
  // Registers a file's text and returns its index.
  int add(std::string path, std::string text);
  const std::string &path(int file) const { return files_.at(file).path; }
  const std::string &text(int file) const { return files_.at(file).text; }
  // The text of 1-based line `line` of `file`, without its newline ("" if out of range).
  std::string line(int file, int line) const;
  int count() const { return static_cast<int>(files_.size()); }
  // "path:line:col" for a span's start (used in runtime error tables too).
  std::string location(const Span &span) const;

private:
  struct File {
    std::string path;
    std::string text;
    std::vector<size_t> lineStarts;
  };
  std::vector<File> files_;
};

} // namespace arrc
