#pragma once
// The reader stage's front door: open a trace (a file or bytes in memory), look at its head,
// see through gzip, and hand back a stream of the (decompressed) trace from byte 0 together
// with what format it is. Importers take it from there.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "libs/trace/reader/chunk_source.h"
#include "libs/trace/reader/format_detector.h"

namespace tw {

struct OpenedTrace {
  TraceFormat format = TraceFormat::kUnknown;  // of the decompressed bytes; never kGzip/kEmpty
  bool gzip = false;                           // the file was gzip-wrapped
  int64_t file_bytes = -1;  // size on disk (compressed if gzip); -1 when unknown (a pipe)
  std::unique_ptr<ChunkSource> source;  // yields decompressed bytes from the start
};

// Errors: NOT_FOUND / PERMISSION_DENIED / INVALID_ARGUMENT (a directory) from opening;
// INVALID_ARGUMENT naming what the first bytes looked like for an unrecognised format. A file of
// no bytes (or a gzip of none) opens as an empty Perfetto trace, as trace_processor reads it. A gzip stream that is truncated or corrupt past its head is
// not an error here: the source returns the decodable bytes, then the error.
absl::StatusOr<OpenedTrace> OpenTraceFile(const std::string& path);

// Same over bytes already in memory. Does not copy: `bytes` must outlive the returned source.
absl::StatusOr<OpenedTrace> OpenTraceBytes(std::string_view bytes);

// Same over any stream (an upload, a socket); `file_bytes` is passed through as given.
absl::StatusOr<OpenedTrace> OpenTraceSource(std::unique_ptr<ChunkSource> source,
                                            int64_t file_bytes);

}  // namespace tw
