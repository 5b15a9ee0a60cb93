#pragma once
// A ChunkSource yields the bytes of a trace front to back, a chunk at a time, so no stage ever
// needs the whole file in memory. Sources stack: a file under a gzip inflater under a prefix
// replay (what format detection peeked). Read() returning 0 means end of stream.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tw {

class ChunkSource {
 public:
  virtual ~ChunkSource();
  // Copies up to `capacity` (> 0) bytes into `buf`. Returns how many; 0 only at end of stream.
  // May return fewer than `capacity` before the end (callers loop).
  virtual absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) = 0;
};

// Reads a file with plain read(2): no mmap, so a file that changes or shrinks under us gives a
// short read instead of a SIGBUS.
class FileChunkSource : public ChunkSource {
 public:
  // NOT_FOUND for a missing file, PERMISSION_DENIED when unreadable, INVALID_ARGUMENT for a
  // directory. Other errno values map through absl::ErrnoToStatus.
  static absl::StatusOr<std::unique_ptr<FileChunkSource>> Open(const std::string& path);
  ~FileChunkSource() override;
  FileChunkSource(const FileChunkSource&) = delete;
  FileChunkSource& operator=(const FileChunkSource&) = delete;

  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override;
  // Size from fstat at open time; -1 when the file is not a regular file (pipe, device).
  int64_t size_bytes() const { return size_bytes_; }

 private:
  FileChunkSource(int fd, std::string path, int64_t size_bytes);

  int fd_;
  std::string path_;
  int64_t size_bytes_;
};

// Serves bytes the caller already holds. Does not copy: `bytes` must outlive the source.
class MemoryChunkSource : public ChunkSource {
 public:
  explicit MemoryChunkSource(std::string_view bytes) : bytes_(bytes) {}
  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override;

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

// Replays `prefix` and then continues with `inner`. Format detection reads the head of a
// stream to look at it; this puts those bytes back so the importer sees the stream from byte 0.
class PrefixedChunkSource : public ChunkSource {
 public:
  PrefixedChunkSource(std::string prefix, std::unique_ptr<ChunkSource> inner)
      : prefix_(std::move(prefix)), inner_(std::move(inner)) {}
  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override;

 private:
  std::string prefix_;
  size_t pos_ = 0;
  std::unique_ptr<ChunkSource> inner_;
};

// Reads from `src` until `max_bytes` are collected or the stream ends. Used to peek heads. An
// error is returned only when nothing at all could be read; otherwise the bytes read so far are
// returned and the (sticky or repeatable) error is left for the next reader to meet.
absl::StatusOr<std::string> ReadUpTo(ChunkSource* src, size_t max_bytes);

}  // namespace tw
