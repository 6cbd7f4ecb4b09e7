#include "arrc/Diagnostics.h"

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
  std::string shown = text.substr(start, 200);
  std::string caret;
  for (size_t i = start; i < col && i - start < shown.size(); ++i)
    caret += (text[i] == '\t') ? '\t' : ' ';
  for (char &c : shown) // keep the terminal clean on binary input
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
      c = '?';
  out_ << shown << "\n" << caret << "^\n";
}

} // namespace arrc
