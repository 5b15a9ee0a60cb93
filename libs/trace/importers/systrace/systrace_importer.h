#pragma once
// Imports systrace: ftrace text as atrace/systrace/trace-cmd write it, the systrace HTML report
// around it, and `atrace -z` output (a "TRACE:" line, then zlib-compressed text). Streams line
// by line from the source (see line_reader.h, systrace_container.h) and hands each ftrace line
// to FtraceTextDecoder, which pushes events into the sorter.

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "libs/trace/importers/systrace/ftrace_text_decoder.h"
#include "libs/trace/importers/systrace/line_reader.h"
#include "libs/trace/importers/systrace/process_dump.h"
#include "libs/trace/importers/systrace/systrace_container.h"
#include "libs/trace/reader/chunk_source.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

struct SystraceImportStats {
  int64_t lines = 0;              // ftrace lines imported
  int64_t failed_lines = 0;       // lines where ftrace was expected but could not be read
  int64_t process_dump_rows = 0;  // processes and threads from an HTML PROCESS DUMP
  int64_t bytes = 0;              // text bytes read (after decompression)
  bool compressed = false;        // the text was zlib-compressed behind "TRACE:"
  std::map<std::string, int64_t> event_counts;  // ftrace event name → lines
};

class SystraceImporter {
 public:
  SystraceImporter(TraceStorage* storage, EventSorter* sorter);

  // Errors: INVALID_ARGUMENT when nothing in the input is systrace (no line could be read, an
  // HTML page without ftrace text); a read or decompression error when it strikes before any
  // line was imported. Later damage keeps the lines before it, with `trace_truncated` in stats.
  absl::Status Import(ChunkSource* source);

  const SystraceImportStats& stats() const { return stats_; }

 private:
  absl::Status OnTraceMarker();
  void OnFtraceLine(std::string_view text);
  void OnFailedLine(std::string_view text);
  // Hands the rows of a finished PROCESS DUMP block to the trackers.
  void FlushProcessDump();
  absl::Status Finish();

  TraceStorage* storage_;
  FtraceTextDecoder decoder_;
  SystraceContainer container_;
  ProcessDumpParser process_dump_;
  ProcessTreeData dump_;  // the process dump rows read so far
  std::unique_ptr<LineReader> reader_;
  std::unique_ptr<ChunkSource> inflated_;  // behind "TRACE:" when compressed
  int64_t bytes_before_inflate_ = 0;
  // Lines that failed before the first good one may be tool chatter ahead of a "TRACE:" line;
  // they count as failures only once no such marker follows.
  int64_t unconfirmed_failures_ = 0;
  std::string first_failure_;
  absl::flat_hash_map<std::string, int64_t> event_counts_;
  SystraceImportStats stats_;
};

}  // namespace tw
