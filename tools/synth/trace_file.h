#pragma once
// The output file of a synthetic trace. A Trace is `repeated TracePacket packet = 1`, so packets
// are appended one by one and the file streams to disk whatever its size.

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "libs/trace/importers/proto/proto_writer.h"

namespace tw::synth {

class TraceFile {
 public:
  TraceFile() = default;
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;
  ~TraceFile();

  absl::Status Open(const std::string& path);
  // Frames `packet` (a serialised TracePacket) as field 1 of Trace and appends it.
  void Write(const proto::Writer& packet);
  void WriteBytes(const std::string& packet);
  // A packet given as consecutive pieces (already serialised fields), written without joining.
  void WriteParts(std::initializer_list<std::string_view> parts);
  absl::Status Close();
  int64_t bytes() const { return bytes_; }
  int64_t packets() const { return packets_; }

 private:
  FILE* f_ = nullptr;
  std::string path_;
  proto::Writer head_;
  int64_t bytes_ = 0;
  int64_t packets_ = 0;
};

// The kernel's comm of a process's main thread: the executable's basename, or for Android apps
// (a package name) its last 15 characters (TASK_COMM_LEN - 1).
std::string MainThreadComm(const std::string& cmdline);

}  // namespace tw::synth
