#include "arrc/Diagnostics.h"

#include <algorithm>
#include <ostream>

namespace arrc {

Diagnostics::Diagnostics(const SourceManager &sources, std::ostream &out)
    : sources_(sources), out_(out) {}

void Diagnostics::error(const Span &span, const std::string &message) {
  report(Severity::Error, span, message);
}
void Diagnostics::warning(const Span &span, const std::string &message) {
  report(Severity::Warning, span, message);
}
void Diagnostics::note(const Span &span, const std::string &message) {
  report(Severity::Note, span, message);
}

void Diagnostics::report(Severity severity, const Span &span, const std::string &message) {
  if (severity == Severity::Warning && werror_)
    severity = Severity::Error;
  if (severity == Severity::Error && ++errors_ > errorLimit_) {
    if (errors_ == errorLimit_ + 1)
      out_ << "arrc: too many errors, stopping here\n";
    return;
  }
  if (severity == Severity::Warning)
    ++warnings_;
  const char *word = severity == Severity::Error     ? "error"
                     : severity == Severity::Warning ? "warning"
                                                     : "note";
  out_ << (span.valid() ? sources_.location(span) : std::string("arrc")) << ": " << word << ": "
       << message << "\n";
  if (!span.valid())
    return;
  std::string text = sources_.line(span.file, span.begin.line);
  // Very long lines (minified or garbage input) are clipped around the column.
  size_t col = static_cast<size_t>(span.begin.col > 0 ? span.begin.col - 1 : 0);
  size_t start = 0;
  if (text.size() > 200 && col > 80)
    start = col - 80;
  while (start > 0 && start < text.size() && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80)
    --start; // do not cut a UTF-8 sequence
  size_t stop = std::min(text.size(), start + 200);
  // Show valid UTF-8 as is (one caret column per code point), control
  // characters and invalid bytes as '?', so binary input keeps the terminal clean.
  std::string shown, caret;
  for (size_t i = start; i < stop;) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t len = 1;
    bool valid = true;
    if (c >= 0x80) {
      len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
      valid = len >= 2 && c >= 0xC2 && c <= 0xF4 && i + len <= text.size();
      for (size_t k = 1; valid && k < len; ++k)
        valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
      if (!valid)
        len = 1;
    }
    if (i < col)
      caret += c == '\t' ? '\t' : ' ';
    if (c >= 0x80 && valid)
      shown.append(text, i, len);
    else if (c == '\t' || (c >= 0x20 && c < 0x7f))
      shown += static_cast<char>(c);
    else
      shown += '?';
    i += len;
  }
  out_ << shown << "\n" << caret << "^\n";
}

} // namespace arrc
