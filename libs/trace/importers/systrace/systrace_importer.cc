#include "libs/trace/importers/systrace/systrace_importer.h"

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/systrace/ftrace_text_line.h"
#include "libs/trace/importers/systrace/zlib_stream_source.h"

namespace tw {
namespace {

// `atrace -z` deflates with zlib; gzip is accepted too since both decode the same way.
bool LooksCompressed(std::string_view head) {
  if (head.size() < 2) return false;
  const auto b0 = static_cast<uint8_t>(head[0]);
  const auto b1 = static_cast<uint8_t>(head[1]);
  if (b0 == 0x1f && b1 == 0x8b) return true;
  return (b0 & 0x0f) == 8 && (b0 >> 4) <= 7 && ((b0 << 8) | b1) % 31 == 0;
}

// A line for an error message: short and printable.
std::string Excerpt(std::string_view text) {
  constexpr size_t kMax = 80;
  std::string out;
  for (char c : text.substr(0, kMax)) {
    const auto u = static_cast<unsigned char>(c);
    out.push_back(u >= 0x20 && u < 0x7f ? c : '.');
  }
  if (text.size() > kMax) out += "...";
  return out;
}

}  // namespace

SystraceImporter::SystraceImporter(TraceStorage* storage, EventSorter* sorter)
    : storage_(storage), decoder_(storage, sorter) {}

absl::Status SystraceImporter::Import(ChunkSource* source) {
  reader_ = std::make_unique<LineReader>(source);
  TextLine line;
  while (!container_.done()) {
    absl::StatusOr<bool> next = reader_->Next(&line);
    if (!next.ok()) {
      // Damage (a cut-off or corrupt compressed stream): keep what came before it, as the
      // protobuf importer does, unless that is nothing.
      if (stats_.lines == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("systrace: ", std::string(next.status().message())));
      }
      storage_->IncrementStat("trace_truncated");
      const std::string message(next.status().message());
      storage_->SetMetadata("trace_corruption", std::string_view(message));
      break;
    }
    if (!*next) break;
    const SystraceContainer::Item item = container_.Classify(line);
    if (item.kind != SystraceContainer::Kind::kProcessDumpLine) FlushProcessDump();
    switch (item.kind) {
      case SystraceContainer::Kind::kIgnore:
        break;
      case SystraceContainer::Kind::kTraceMarker:
        if (absl::Status s = OnTraceMarker(); !s.ok()) return s;
        break;
      case SystraceContainer::Kind::kFtraceLine:
        OnFtraceLine(item.text);
        break;
      case SystraceContainer::Kind::kOverlongFtrace:
        OnFailedLine(item.text);
        break;
      case SystraceContainer::Kind::kProcessDumpStart:
        process_dump_.Reset();
        break;
      case SystraceContainer::Kind::kProcessDumpLine:
        if (process_dump_.ParseLine(item.text, &dump_)) {
          ++stats_.process_dump_rows;
        } else {
          storage_->IncrementStat("systrace_parse_failure");
        }
        break;
    }
  }
  return Finish();
}

absl::Status SystraceImporter::OnTraceMarker() {
  // Whatever failed before the marker was the capturing tool talking, not trace.
  if (stats_.lines == 0) {
    stats_.failed_lines -= unconfirmed_failures_;
    unconfirmed_failures_ = 0;
    first_failure_.clear();
  }
  if (inflated_) return absl::OkStatus();  // one level of compression, no more
  absl::StatusOr<std::string_view> head = reader_->Peek(2);
  if (!head.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("systrace: ", std::string(head.status().message())));
  }
  if (!LooksCompressed(*head)) return absl::OkStatus();
  bytes_before_inflate_ = reader_->bytes_consumed();
  inflated_ = std::make_unique<ZlibStreamSource>(reader_->TakeRemainder());
  reader_ = std::make_unique<LineReader>(inflated_.get());
  stats_.compressed = true;
  return absl::OkStatus();
}

void SystraceImporter::OnFtraceLine(std::string_view text) {
  FtraceTextLine parsed;
  if (!ParseFtraceTextLine(text, &parsed)) {
    OnFailedLine(text);
    return;
  }
  if (stats_.lines == 0 && unconfirmed_failures_ > 0) {
    storage_->IncrementStat("systrace_parse_failure", unconfirmed_failures_);
    unconfirmed_failures_ = 0;
  }
  ++stats_.lines;
  if (!decoder_.Decode(parsed)) storage_->IncrementStat("systrace_parse_failure");
  const absl::string_view name(parsed.event.data(), parsed.event.size());
  auto it = event_counts_.find(name);
  if (it == event_counts_.end()) it = event_counts_.emplace(std::string(parsed.event), 0).first;
  ++it->second;
}

void SystraceImporter::OnFailedLine(std::string_view text) {
  ++stats_.failed_lines;
  if (first_failure_.empty()) first_failure_ = Excerpt(text);
  if (stats_.lines == 0) {
    ++unconfirmed_failures_;
  } else {
    storage_->IncrementStat("systrace_parse_failure");
  }
}

void SystraceImporter::FlushProcessDump() {
  if (dump_.processes.empty() && dump_.threads.empty()) return;
  decoder_.PushProcessTree(std::move(dump_));
  dump_ = ProcessTreeData();
}

absl::Status SystraceImporter::Finish() {
  FlushProcessDump();
  if (unconfirmed_failures_ > 0) {
    storage_->IncrementStat("systrace_parse_failure", unconfirmed_failures_);
    unconfirmed_failures_ = 0;
  }
  stats_.bytes = bytes_before_inflate_ + reader_->bytes_read();
  for (const auto& [name, count] : event_counts_) stats_.event_counts[name] = count;

  if (stats_.lines > 0 || stats_.process_dump_rows > 0) return absl::OkStatus();
  if (stats_.failed_lines > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("systrace: no line could be read as ftrace text (", stats_.failed_lines,
                     " tried; the first: \"", first_failure_, "\")"));
  }
  if (container_.is_html() && !container_.found_ftrace_block()) {
    return absl::InvalidArgumentError(
        container_.skipped_blocks() > 0
            ? "systrace HTML: its trace-data blocks hold no ftrace text (other kinds, such as "
              "Chrome JSON, are not imported from HTML)"
            : "systrace HTML: no trace-data block found");
  }
  return absl::OkStatus();  // a header with no events: an empty trace
}

}  // namespace tw
