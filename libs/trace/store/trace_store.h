#pragma once
// Trace files on disk, by content. An upload streams into a temporary file while its SHA-256 is
// computed; on success it is renamed to `<sha256>.trace` (atomic, so readers never see a partial
// file), on failure it is removed. The id of a trace is its SHA-256 in hex.
//
// Tenancy (issue #16): an upload made for a tenant stores its bytes once under
// `blobs/<sha256>.trace` (shared by every tenant that uploads the same bytes) and gives the
// tenant its own id (auth::TenantObjectId) with an ownership record `<id>.owner` (tenant,
// uploader, name, size). Another tenant uploading the same bytes gets a different id, its own
// record, `already_stored = false`, and learns nothing; deleting removes only the caller's
// record, and the bytes when no record refers to them any more. Uploads without a tenant (auth
// off) are stored exactly as before.

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
  std::string name;  // as uploaded (made safe by SafeTraceName), for display
  int64_t size_bytes = 0;
  bool already_stored = false;
  std::string tenant;  // empty: stored without tenancy
  std::string owner;   // who uploaded it (subject), when stored for a tenant
};

// Who an upload is for; empty tenant = no tenancy.
struct TraceOwner {
  std::string tenant;
  std::string subject;
};

// A display name that is safe anywhere it goes (file names, headers, HTML, prompts): the last
// path component only (no `../`), no NULs or control characters, at most 200 bytes of UTF-8;
// "trace" when nothing is left.
std::string SafeTraceName(std::string_view name);

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
  TraceUpload(TraceStore* store, std::string name, std::string temp_path, int64_t max_bytes,
              TraceOwner owner);
  TraceStore* store_;
  std::string name_;
  TraceOwner owner_;
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
                                                           int64_t declared_size,
                                                           const TraceOwner& owner = {});
  // Copies a local file in (tests, the CLI). Same checks as an upload.
  absl::StatusOr<StoredTrace> AddFile(const std::string& path, const TraceOwner& owner = {});

  // NOT_FOUND for unknown ids; INVALID_ARGUMENT for ids that are not 64 hex digits.
  absl::StatusOr<StoredTrace> Find(const std::string& id) const;
  // The file holding the trace's bytes (the shared blob for a tenant's trace).
  std::string PathOf(const std::string& id) const;
  std::vector<StoredTrace> List() const;
  // Removes the trace (a tenant's record; the bytes once nobody refers to them). NOT_FOUND for
  // unknown ids.
  absl::Status Delete(const std::string& id);
  // Bytes the tenant's traces hold (each upload counted at its size), for storage quotas.
  int64_t TenantBytes(const std::string& tenant) const;
  int64_t max_upload_bytes() const { return max_upload_bytes_; }

 private:
  friend class TraceUpload;
  TraceStore(std::string dir, int64_t max_upload_bytes)
      : dir_(std::move(dir)), max_upload_bytes_(max_upload_bytes) {}
  absl::StatusOr<StoredTrace> Commit(const std::string& temp_path, const std::string& id,
                                     const std::string& name, int64_t size);
  absl::StatusOr<StoredTrace> CommitForTenant(const std::string& temp_path,
                                              const std::string& content_id,
                                              const std::string& name, int64_t size,
                                              const TraceOwner& owner);
  std::string OwnerRecordPath(const std::string& id) const;
  std::string BlobPath(const std::string& content_id) const;
  absl::StatusOr<StoredTrace> ReadOwnerRecord(const std::string& id) const;

  std::string dir_;
  int64_t max_upload_bytes_;
  mutable std::mutex mu_;
  int next_temp_ = 0;
};

}  // namespace tw
