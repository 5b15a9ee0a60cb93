#pragma once
// Trace files on disk, by content. An upload streams into a temporary file while its SHA-256 is
// computed; on success it is renamed to `<sha256>.trace` (atomic, so readers never see a partial
// file), on failure it is removed. The id of a trace is its SHA-256 in hex.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/trace/store/sha256.h"

namespace tw {

struct StoredTrace {
  std::string id;
  std::string name;  // as uploaded, for display
  int64_t size_bytes = 0;
  bool already_stored = false;
};

class TraceStore;

// One upload in progress. Destroying it without Finish() discards the data.
class TraceUpload {
 public:
  ~TraceUpload();
  // RESOURCE_EXHAUSTED once the upload passes the store's size limit.
  absl::Status Append(std::string_view bytes);
  // `expected_sha256` (hex, optional) must match the data: INVALID_ARGUMENT otherwise.
  absl::StatusOr<StoredTrace> Finish(const std::string& expected_sha256 = "");
  int64_t bytes() const { return bytes_; }

 private:
  friend class TraceStore;
  TraceUpload(TraceStore* store, std::string name, std::string temp_path, int64_t max_bytes);
  TraceStore* store_;
  std::string name_;
  std::string temp_path_;
  int64_t max_bytes_;
  int64_t bytes_ = 0;
  int fd_ = -1;
  Sha256 hash_;
  bool done_ = false;
};

class TraceStore {
 public:
  // Creates `dir` if needed. `max_upload_bytes` caps a single trace.
  static absl::StatusOr<std::unique_ptr<TraceStore>> Open(const std::string& dir,
                                                          int64_t max_upload_bytes);

  // RESOURCE_EXHAUSTED when `declared_size` already exceeds the limit.
  absl::StatusOr<std::unique_ptr<TraceUpload>> BeginUpload(const std::string& name,
                                                           int64_t declared_size);
  // Copies a local file in (tests, the CLI). Same checks as an upload.
  absl::StatusOr<StoredTrace> AddFile(const std::string& path);

  // NOT_FOUND for unknown ids; INVALID_ARGUMENT for ids that are not 64 hex digits.
  absl::StatusOr<StoredTrace> Find(const std::string& id) const;
  std::string PathOf(const std::string& id) const;
  std::vector<StoredTrace> List() const;
  int64_t max_upload_bytes() const { return max_upload_bytes_; }

 private:
  friend class TraceUpload;
  TraceStore(std::string dir, int64_t max_upload_bytes)
      : dir_(std::move(dir)), max_upload_bytes_(max_upload_bytes) {}
  absl::StatusOr<StoredTrace> Commit(const std::string& temp_path, const std::string& id,
                                     const std::string& name, int64_t size);

  std::string dir_;
  int64_t max_upload_bytes_;
  mutable std::mutex mu_;
  int next_temp_ = 0;
};

}  // namespace tw
