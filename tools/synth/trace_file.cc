#include "tools/synth/trace_file.h"

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw::synth {

TraceFile::~TraceFile() {
  if (f_) std::fclose(f_);
}

absl::Status TraceFile::Open(const std::string& path) {
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create ", path, ": ", std::strerror(errno)));
  }
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
  path_ = path;
  return absl::OkStatus();
}

void TraceFile::Write(const proto::Writer& packet) { WriteBytes(packet.data()); }

void TraceFile::WriteBytes(const std::string& packet) {
  head_.Clear();
  head_.RawVarint((uint64_t{pf::trace::kPacket} << 3) | 2);
  head_.RawVarint(packet.size());
  std::fwrite(head_.data().data(), 1, head_.size(), f_);
  std::fwrite(packet.data(), 1, packet.size(), f_);
  bytes_ += static_cast<int64_t>(head_.size() + packet.size());
  ++packets_;
}

void TraceFile::WriteParts(std::initializer_list<std::string_view> parts) {
  size_t size = 0;
  for (std::string_view p : parts) size += p.size();
  head_.Clear();
  head_.RawVarint((uint64_t{pf::trace::kPacket} << 3) | 2);
  head_.RawVarint(size);
  std::fwrite(head_.data().data(), 1, head_.size(), f_);
  for (std::string_view p : parts) std::fwrite(p.data(), 1, p.size(), f_);
  bytes_ += static_cast<int64_t>(head_.size() + size);
  ++packets_;
}

absl::Status TraceFile::Close() {
  if (!f_) return absl::OkStatus();
  const bool failed = std::ferror(f_) != 0;
  const bool close_failed = std::fclose(f_) != 0;
  f_ = nullptr;
  if (failed || close_failed) return absl::DataLossError(absl::StrCat("cannot write ", path_));
  return absl::OkStatus();
}

std::string MainThreadComm(const std::string& cmdline) {
  constexpr size_t kMaxComm = 15;
  std::string base = cmdline.substr(cmdline.rfind('/') + 1);
  if (!cmdline.empty() && cmdline[0] == '/') return base.substr(0, kMaxComm);
  return base.size() > kMaxComm ? base.substr(base.size() - kMaxComm) : base;
}

}  // namespace tw::synth
