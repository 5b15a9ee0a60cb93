#pragma once
// Decides what kind of trace a stream holds from its first bytes (its "head"), so the loader
// can pick an importer before reading further. Pure function of the bytes; no I/O.

#include <cstddef>
#include <string>
#include <string_view>

namespace tw {

enum class TraceFormat {
  kUnknown,
  kPerfettoProto,  // a perfetto.protos.Trace: repeated TracePacket packet = 1
  kJson,           // Chrome trace-event JSON (object or array form)
  kSystrace,       // ftrace/atrace text, including "TRACE:" headed (possibly zlib'd) atrace dumps
  kSystraceHtml,   // systrace's HTML report with the trace embedded
  kAndroidDumpstate,  // Android dumpstate text, or a BatteryStats checkin dump ("9,0,i,vers,...")
  kGzip,           // a gzip (1f 8b) wrapper; detect again on the inflated bytes
  kEmpty,
};

// How many head bytes callers should offer. Detection works on less (down to a few bytes), but
// the proto check validates more packets, and so guesses better, on a longer head.
inline constexpr size_t kTraceDetectHeadBytes = 64 << 10;

TraceFormat DetectTraceFormat(std::string_view head);

// Stable lower-case names ("perfetto_proto", "json", ...), for logs, stats and metadata.
std::string_view TraceFormatName(TraceFormat format);

// A short human description of what the head looks like, for "unknown format" errors: whether
// it is text or binary, and its first bytes both printable and in hex.
std::string DescribeTraceHead(std::string_view head);

}  // namespace tw
