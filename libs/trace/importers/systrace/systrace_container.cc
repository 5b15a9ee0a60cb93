#include "libs/trace/importers/systrace/systrace_container.h"

#include <cctype>
#include <string>

namespace tw {
namespace {

constexpr std::string_view kScriptEnd = "</script>";

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// For an overlong line only its ends are known; a tag is looked for in both.
bool LineContains(const TextLine& line, std::string_view needle) {
  return line.text.find(needle) != std::string_view::npos ||
         (line.overlong && line.tail.find(needle) != std::string_view::npos);
}

// atrace prints "TRACE:" on a line of its own, sometimes after "capturing trace... done.".
bool IsTraceMarker(std::string_view trimmed) {
  return trimmed == "TRACE:" || EndsWith(trimmed, " TRACE:");
}

// trace-cmd's text output starts with "cpus=<n>".
bool IsCpusLine(std::string_view trimmed) {
  if (!StartsWith(trimmed, "cpus=") || trimmed.size() == 5) return false;
  for (char c : trimmed.substr(5)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// HTML starts with a tag, but so can an ftrace line ("<idle>-0 ...", "<...>-1234 ..."): only
// document-level tags count.
bool StartsHtml(std::string_view trimmed) {
  std::string lower;
  for (char c : trimmed.substr(0, 9))
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  for (std::string_view tag : {"<!", "<?xml", "<html", "<head", "<body", "<script", "<meta"}) {
    if (StartsWith(lower, tag)) return true;
  }
  return false;
}

// `<script class="trace-data" type="application/text">`, in whatever attribute order.
bool OpensTraceData(std::string_view text, size_t* tag_end) {
  const size_t script = text.find("<script");
  if (script == std::string_view::npos) return false;
  const size_t close = text.find('>', script);
  if (close == std::string_view::npos) return false;
  if (text.substr(script, close - script).find("trace-data") == std::string_view::npos) {
    return false;
  }
  *tag_end = close + 1;
  return true;
}

}  // namespace

std::string_view UnescapeJsStringLine(std::string_view line, bool in_js_string, bool* closes,
                                      std::string* storage) {
  *closes = false;
  std::string_view s = line;
  if (EndsWith(s, "\\n\\")) {
    s.remove_suffix(3);
  } else if (EndsWith(s, "\\n\";")) {
    s.remove_suffix(4);
    *closes = true;
  } else if (EndsWith(s, "\\n\"")) {
    s.remove_suffix(3);
    *closes = true;
  } else if (!in_js_string) {
    return line;  // an ordinary line
  } else if (EndsWith(s, "\";")) {
    s.remove_suffix(2);
    *closes = true;
  } else if (EndsWith(s, "\"")) {
    s.remove_suffix(1);
    *closes = true;
  } else if (EndsWith(s, "\\")) {
    s.remove_suffix(1);
  }
  if (s.find('\\') == std::string_view::npos) return s;
  storage->clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      storage->push_back(s[i]);
      continue;
    }
    const char next = s[++i];
    switch (next) {
      case '\\':
      case '"':
      case '\'':
      case '/':
        storage->push_back(next);
        break;
      case 't':
        storage->push_back('\t');
        break;
      default:  // leave other escapes as written
        storage->push_back('\\');
        storage->push_back(next);
        break;
    }
  }
  return *storage;
}

SystraceContainer::Item SystraceContainer::FtraceContent(std::string_view text, bool in_js,
                                                         bool* closes) {
  const std::string_view s = UnescapeJsStringLine(text, in_js, closes, &unescaped_);
  const std::string_view trimmed = Trim(s);
  if (trimmed.empty() || s[0] == '#' || IsCpusLine(trimmed)) return {};
  if (IsTraceMarker(trimmed)) return {Kind::kTraceMarker, trimmed};
  return {Kind::kFtraceLine, s};
}

void SystraceContainer::EndFtraceBlock() { state_ = State::kHtmlOutside; }

SystraceContainer::Item SystraceContainer::Classify(const TextLine& line) {
  switch (state_) {
    case State::kStart: {
      const std::string_view trimmed = Trim(line.text);
      if (trimmed.empty() && !line.overlong) return {};
      if (StartsHtml(trimmed)) {
        html_ = true;
        state_ = State::kHtmlOutside;
        return ClassifyHtml(line);
      }
      if (!line.overlong) {
        if (IsTraceMarker(trimmed)) return {Kind::kTraceMarker, trimmed};
        if (IsCpusLine(trimmed)) return {};
      }
      state_ = State::kText;
      return Classify(line);
    }
    case State::kText: {
      if (LineContains(line, kScriptEnd)) {
        state_ = State::kDone;
        return {};
      }
      if (line.overlong) return {Kind::kOverlongFtrace, line.text};
      bool closes = false;
      const Item item = FtraceContent(line.text, false, &closes);
      if (closes) state_ = State::kDone;  // the end of a saved JavaScript string
      return item;
    }
    case State::kDone:
      return {};
    default:
      return ClassifyHtml(line);
  }
}

SystraceContainer::Item SystraceContainer::ClassifyHtml(const TextLine& line) {
  switch (state_) {
    case State::kHtmlOutside: {
      size_t tag_end = 0;
      if (OpensTraceData(line.text, &tag_end)) {
        // A block that also closes on this line holds nothing we read line by line.
        const bool closed = line.text.find(kScriptEnd, tag_end) != std::string_view::npos ||
                            (line.overlong && line.tail.find(kScriptEnd) != std::string_view::npos);
        if (closed) {
          ++skipped_blocks_;
        } else {
          state_ = State::kHtmlBlockHead;
        }
        return {};
      }
      if (!found_ftrace_block_ && (line.text.find("linuxPerfData = \"") != std::string_view::npos ||
                                   line.text.find("linuxPerfData=\"") != std::string_view::npos)) {
        found_ftrace_block_ = true;
        state_ = State::kHtmlLegacy;
      }
      return {};
    }
    case State::kHtmlBlockHead: {
      if (LineContains(line, kScriptEnd)) {
        ++skipped_blocks_;
        state_ = State::kHtmlOutside;
        return {};
      }
      if (line.overlong) return {};  // a JSON block, typically
      const std::string_view text = line.text;
      if (StartsWith(text, "#") && text.find("TASK-PID") != std::string_view::npos) {
        // Only the first ftrace block is imported, as trace_processor does.
        if (found_ftrace_block_) {
          ++skipped_blocks_;
          state_ = State::kHtmlSkipBlock;
        } else {
          found_ftrace_block_ = true;
          state_ = State::kHtmlFtrace;
        }
        return {};
      }
      if (StartsWith(text, "PROCESS DUMP")) {
        state_ = State::kHtmlProcessDump;
        return {Kind::kProcessDumpStart, text};
      }
      if (StartsWith(text, "CGROUP DUMP")) {
        ++skipped_blocks_;
        state_ = State::kHtmlSkipBlock;
      }
      return {};
    }
    case State::kHtmlFtrace:
    case State::kHtmlLegacy: {
      if (LineContains(line, kScriptEnd)) {
        EndFtraceBlock();
        return {};
      }
      if (line.overlong) return {Kind::kOverlongFtrace, line.text};
      bool closes = false;
      Item item = FtraceContent(line.text, state_ == State::kHtmlLegacy, &closes);
      if (item.kind == Kind::kTraceMarker) item.kind = Kind::kFtraceLine;  // not here: junk
      if (closes && state_ == State::kHtmlLegacy) EndFtraceBlock();
      return item;
    }
    case State::kHtmlProcessDump:
      if (LineContains(line, kScriptEnd)) {
        state_ = State::kHtmlOutside;
        return {};
      }
      if (line.overlong) return {};
      return {Kind::kProcessDumpLine, line.text};
    case State::kHtmlSkipBlock:
      if (LineContains(line, kScriptEnd)) state_ = State::kHtmlOutside;
      return {};
    default:
      return {};
  }
}

}  // namespace tw
