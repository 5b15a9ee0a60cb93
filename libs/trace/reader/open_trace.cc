#include "libs/trace/reader/open_trace.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/trace/reader/gzip_chunk_source.h"

namespace tw {
namespace {

// Peeks the head of `*source` and replaces `*source` with a stream that replays it.
absl::StatusOr<std::string> PeekHead(std::unique_ptr<ChunkSource>* source) {
  absl::StatusOr<std::string> head = ReadUpTo(source->get(), kTraceDetectHeadBytes);
  if (!head.ok()) return head.status();
  *source = std::make_unique<PrefixedChunkSource>(*head, std::move(*source));
  return head;
}

absl::Status UnknownFormat(std::string_view head, bool gzip) {
  return absl::InvalidArgumentError(
      absl::StrCat("unrecognised trace format", gzip ? " inside gzip" : "",
                   " (expected Perfetto protobuf, Chrome JSON, systrace text or HTML, Android dumpstate): ",
                   DescribeTraceHead(head)));
}

}  // namespace

absl::StatusOr<OpenedTrace> OpenTraceSource(std::unique_ptr<ChunkSource> source,
                                            int64_t file_bytes) {
  OpenedTrace out;
  out.file_bytes = file_bytes;

  absl::StatusOr<std::string> head = PeekHead(&source);
  if (!head.ok()) return head.status();
  TraceFormat format = DetectTraceFormat(*head);
  if (format == TraceFormat::kGzip) {
    out.gzip = true;
    source = std::make_unique<GzipChunkSource>(std::move(source));
    // A stream too damaged to yield even one byte fails here; one that fails later is the
    // importer's to report, with whatever it managed to import.
    head = PeekHead(&source);
    if (!head.ok()) return head.status();
    format = DetectTraceFormat(*head);
    if (format == TraceFormat::kGzip) {
      return absl::InvalidArgumentError("gzip inside gzip is not supported");
    }
  }

  // No bytes at all (or a gzip of none) is a Perfetto trace with no packets, as
  // trace_processor reads it: every table exists and is empty, and SQL runs on it. A service
  // that refuses empty uploads says so itself; the engine does not.
  if (format == TraceFormat::kEmpty) format = TraceFormat::kPerfettoProto;
  if (format == TraceFormat::kUnknown) return UnknownFormat(*head, out.gzip);
  out.format = format;
  out.source = std::move(source);
  return out;
}

absl::StatusOr<OpenedTrace> OpenTraceFile(const std::string& path) {
  absl::StatusOr<std::unique_ptr<FileChunkSource>> file = FileChunkSource::Open(path);
  if (!file.ok()) return file.status();
  const int64_t size = (*file)->size_bytes();
  return OpenTraceSource(std::move(*file), size);
}

absl::StatusOr<OpenedTrace> OpenTraceBytes(std::string_view bytes) {
  return OpenTraceSource(std::make_unique<MemoryChunkSource>(bytes),
                         static_cast<int64_t>(bytes.size()));
}

}  // namespace tw
