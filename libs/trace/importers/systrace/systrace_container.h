#pragma once
// Finds the ftrace text inside the files systrace tools write, one line at a time, so the
// importer never needs more than the current line:
//
// - plain ftrace text ("# tracer: nop" header, or none), possibly preceded by adb chatter and
//   an atrace "TRACE:" line (after which the data may be zlib-compressed: the importer decides)
//   and a trace-cmd "cpus=N" line;
// - systrace's HTML report: ftrace text in a <script class="trace-data"> block that starts
//   with the "#  TASK-PID ..." header. Other trace-data blocks (Chrome JSON, cgroup dumps) are
//   skipped; a "PROCESS DUMP" block (ps output) is handed over. As trace_processor does, only
//   the first ftrace block is imported;
// - the legacy HTML report, where the text is a JavaScript string literal (`var linuxPerfData =
//   "` and then one line of text per source line, each ending in a literal `\n\`), and
//   fragments of it saved as text.

#include <string>
#include <string_view>

#include "libs/trace/importers/systrace/line_reader.h"

namespace tw {

class SystraceContainer {
 public:
  enum class Kind {
    kIgnore,            // header, comment, HTML, a block we skip
    kTraceMarker,       // atrace's "TRACE:" line: compressed data may follow
    kFtraceLine,        // `text` is one line of ftrace output
    kProcessDumpStart,  // a PROCESS DUMP block begins
    kProcessDumpLine,   // `text` is one line of it
    kOverlongFtrace,    // a line too long to be ftrace, where ftrace was expected
  };
  struct Item {
    Kind kind = Kind::kIgnore;
    std::string_view text;  // valid until the next call (or the next line read)
  };

  Item Classify(const TextLine& line);

  bool is_html() const { return html_; }
  // Nothing more can be imported (the text ended with </script> or a closing JS quote).
  bool done() const { return state_ == State::kDone; }
  // An HTML file with a block holding ftrace text (modern or legacy form).
  bool found_ftrace_block() const { return found_ftrace_block_; }
  // Trace-data blocks that were neither ftrace nor a process dump (Chrome JSON, ...).
  int skipped_blocks() const { return skipped_blocks_; }

 private:
  enum class State {
    kStart,          // nothing seen yet but blank lines, "TRACE:" or "cpus="
    kText,           // plain ftrace text
    kHtmlOutside,    // HTML between trace-data blocks
    kHtmlBlockHead,  // in a trace-data block, before its content tells what it is
    kHtmlFtrace,     // in the ftrace block
    kHtmlLegacy,     // in the legacy JavaScript string
    kHtmlProcessDump,
    kHtmlSkipBlock,  // in a block we do not import, until </script>
    kDone,           // after the ftrace text: nothing more to import
  };

  Item ClassifyHtml(const TextLine& line);
  // A line where ftrace text is expected, possibly JS-escaped (always so with `in_js`):
  // comments, blanks and "cpus=" are ignored. `closes`: the line ended a JS string.
  Item FtraceContent(std::string_view text, bool in_js, bool* closes);
  void EndFtraceBlock();

  State state_ = State::kStart;
  bool html_ = false;
  bool found_ftrace_block_ = false;
  int skipped_blocks_ = 0;
  std::string unescaped_;
};

// Undoes the escaping of a line inside a JavaScript string literal: a trailing "\n\" (or the
// "\n\";" that closes the literal) is removed and \\, \", \' and \t are decoded. `closes`
// tells whether this line ended the literal. Lines that are not escaped come back unchanged.
std::string_view UnescapeJsStringLine(std::string_view line, bool in_js_string, bool* closes,
                                      std::string* storage);

}  // namespace tw
