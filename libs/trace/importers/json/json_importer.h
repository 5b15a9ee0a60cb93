#pragma once
// Imports a Chrome JSON trace (the trace-event format: {"traceEvents": [...]} or a bare array)
// with trace_processor's semantics. Streams the file event by event (json_trace_reader.h),
// decodes each event (json_event_decoder.h) and pushes it to the sorter; the JSON event
// tracker turns the sorted events into rows. Also reads what rides along at the top level:
// "metadata" (json_metadata.* rows), "displayTimeUnit" (counted, as trace_processor does: it
// is a display hint and never rescales timestamps) and "systemTraceEvents" ftrace text.

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "libs/trace/importers/json/json_event_decoder.h"
#include "libs/trace/importers/json/json_trace_reader.h"
#include "libs/trace/importers/json/v8_cpu_profile.h"
#include "libs/trace/importers/systrace/ftrace_text_decoder.h"
#include "libs/trace/reader/chunk_source.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

struct JsonImportStats {
  int64_t events = 0;              // trace events pushed to the sorter
  int64_t failed_events = 0;       // elements that could not be read as events
  int64_t system_trace_lines = 0;  // ftrace lines from "systemTraceEvents"
  int64_t bytes = 0;               // JSON bytes read (after decompression)
  std::map<std::string, int64_t> phases;  // "ph" value → events
};

class JsonImporter {
 public:
  // `max_event_bytes` bounds the memory one event may take; longer events are skipped.
  JsonImporter(TraceStorage* storage, EventSorter* sorter, int64_t max_event_bytes = 256 << 20);

  // Errors: INVALID_ARGUMENT when the file is not a JSON trace (not JSON, JSON without
  // "traceEvents", or events that are not even JSON objects and none that import) or breaks
  // before its first event. Events that are JSON but lack what an event needs (a phase, a
  // usable "ts") are counted in `json_tokenizer_failure`, as trace_processor does, even when
  // none is left. Damage after the first event keeps the events before it, with
  // `json_parser_failure` in stats (and `trace_truncated` when the file is cut short).
  absl::Status Import(ChunkSource* source);

  const JsonImportStats& stats() const { return stats_; }

 private:
  void OnEvent(std::string_view text);
  void OnV8Profile(const DecodedJsonEvent& event, std::string_view raw);
  void PushV8(int64_t ts, uint32_t queue, V8CpuProfileData data);
  void OnMetadata(std::string_view text);
  void OnSystemTraceLine(std::string_view line);
  // An event that could not be read: counted in json_tokenizer_failure with a log holding its
  // text (`raw`) and, when there is one, what was wrong with a value (`error`).
  void NoteFailure(std::string_view why, std::string_view raw, std::string_view error = {});
  // Counts `stat` with a log of `raw` and `error` (omitted when empty), as trace_processor's
  // JSON tokenizer logs an event it rejects.
  void LogTokenizerError(std::string_view stat, std::string_view raw, std::string_view error);
  absl::Status Finish(const JsonTraceReader& reader, const absl::Status& damage);

  TraceStorage* storage_;
  EventSorter* sorter_;
  size_t max_event_bytes_;
  FtraceTextDecoder ftrace_;
  bool saw_complete_event_ = false;  // an 'X' so far: same-ts events are ordered by phase
  std::string first_failure_;
  int64_t malformed_events_ = 0;  // failed events whose text is not JSON at all
  JsonImportStats stats_;
  V8ProfileSessions v8_profiles_;
};

}  // namespace tw
