#include "libs/trace/store/trace_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/auth/tenant_ids.h"
#include "libs/common/utf8.h"

namespace tw {
namespace fs = std::filesystem;
namespace {

bool IsTraceId(const std::string& id) {
  if (id.size() != 64) return false;
  for (char c : id) {
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(c)) || absl::ascii_isupper(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

absl::Status Errno(const std::string& what) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno)));
}

// Temporary upload names carry the host and process, because replicas on several machines
// (pods) share one store directory: each one clears only its own leftovers.
std::string HostName() {
  char name[256] = {0};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "host";
  std::string out(name);
  for (char& c : out) {
    if (c == '/' || c == '-') c = '_';
  }
  return out;
}

std::string TempPrefix() { return absl::StrCat("upload-", HostName(), "-"); }

// Another replica's upload older than this is abandoned (its replica died mid-upload and was
// replaced under another name); anything younger may still be streaming.
constexpr auto kAbandonedUploadAge = std::chrono::hours(6);

// Writes `text` to `path` whole or not at all (another replica may read it at any moment).
absl::Status WriteAtomically(const std::string& path, const std::string& text) {
  const std::string temp = absl::StrCat(path, ".tmp-", HostName(), "-", ::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) return Errno(absl::StrCat("writing ", temp));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    ::unlink(temp.c_str());
    return Errno(absl::StrCat("writing ", path));
  }
  return absl::OkStatus();
}

constexpr char kOwnerSuffix[] = ".owner";

}  // namespace

std::string SafeTraceName(std::string_view name) {
  // The last component, whichever separator the client's platform uses.
  const size_t slash = name.find_last_of("/\\");
  if (slash != std::string_view::npos) name = name.substr(slash + 1);
  std::string out;
  out.reserve(name.size());
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) continue;  // NUL, newlines, escapes
    out.push_back(static_cast<char>(c));
  }
  out = Utf8Prefix(out, 200);
  if (out.empty() || out == "." || out == "..") return "trace";
  return out;
}

TraceUpload::TraceUpload(TraceStore* store, std::string name, std::string temp_path,
                         int64_t max_bytes, TraceOwner owner)
    : store_(store),
      name_(SafeTraceName(name)),
      owner_(std::move(owner)),
      temp_path_(std::move(temp_path)),
      max_bytes_(max_bytes) {
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

TraceUpload::~TraceUpload() {
  if (fd_ >= 0) ::close(fd_);
  if (!done_) ::unlink(temp_path_.c_str());
}

absl::Status TraceUpload::Append(std::string_view bytes) {
  if (done_) return absl::FailedPreconditionError("upload already finished");
  if (fd_ < 0) return Errno(absl::StrCat("cannot create ", temp_path_));
  if (bytes_ + static_cast<int64_t>(bytes.size()) > max_bytes_) {
    return absl::ResourceExhaustedError(
        absl::StrCat("trace exceeds the upload limit of ", max_bytes_, " bytes"));
  }
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("writing the upload");
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  hash_.Update(bytes);
  bytes_ += static_cast<int64_t>(bytes.size());
  return absl::OkStatus();
}

absl::StatusOr<StoredTrace> TraceUpload::Finish(const std::string& expected_sha256) {
  if (done_) return absl::FailedPreconditionError("upload already finished");
  if (fd_ < 0) return Errno(absl::StrCat("cannot create ", temp_path_));
  if (bytes_ == 0) return absl::InvalidArgumentError("empty upload");
  if (::fsync(fd_) != 0) return Errno("syncing the upload");
  ::close(fd_);
  fd_ = -1;
  const std::string id = hash_.HexDigest();
  if (!expected_sha256.empty() && absl::AsciiStrToLower(expected_sha256) != id) {
    return absl::InvalidArgumentError(absl::StrCat("checksum mismatch: the data has sha256 ", id,
                                                   ", the upload declared ", expected_sha256));
  }
  auto stored = owner_.tenant.empty()
                    ? store_->Commit(temp_path_, id, name_, bytes_)
                    : store_->CommitForTenant(temp_path_, id, name_, bytes_, owner_);
  if (stored.ok()) done_ = true;
  return stored;
}

absl::StatusOr<std::unique_ptr<TraceStore>> TraceStore::Open(const std::string& dir,
                                                             int64_t max_upload_bytes) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "tmp", ec);
  if (!ec) fs::create_directories(fs::path(dir) / "blobs", ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot create trace store ", dir, ": ", ec.message()));
  // Uploads interrupted by a crash leave temporary files; they are never valid traces. The
  // directory may be shared with other replicas whose uploads are in flight: only this host's
  // own files, and files nobody has written to for hours, are removed.
  const std::string own = TempPrefix();
  const auto now = fs::file_time_type::clock::now();
  for (const auto& entry : fs::directory_iterator(fs::path(dir) / "tmp", ec)) {
    const std::string file = entry.path().filename().string();
    std::error_code time_ec;
    const auto written = fs::last_write_time(entry.path(), time_ec);
    if (file.rfind(own, 0) == 0 || (!time_ec && now - written > kAbandonedUploadAge)) {
      fs::remove(entry.path(), ec);
    }
  }
  return std::unique_ptr<TraceStore>(new TraceStore(dir, max_upload_bytes));
}

absl::StatusOr<std::unique_ptr<TraceUpload>> TraceStore::BeginUpload(const std::string& name,
                                                                     int64_t declared_size,
                                                                     const TraceOwner& owner) {
  if (declared_size > max_upload_bytes_) {
    return absl::ResourceExhaustedError(absl::StrCat("trace of ", declared_size,
                                                     " bytes exceeds the upload limit of ",
                                                     max_upload_bytes_, " bytes"));
  }
  std::string temp;
  {
    std::lock_guard<std::mutex> lock(mu_);
    temp = (fs::path(dir_) / "tmp" / absl::StrCat(TempPrefix(), ::getpid(), "-", next_temp_++)).string();
  }
  return std::unique_ptr<TraceUpload>(new TraceUpload(this, name, temp, max_upload_bytes_, owner));
}

absl::StatusOr<StoredTrace> TraceStore::AddFile(const std::string& path, const TraceOwner& owner) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  auto upload = BeginUpload(fs::path(path).filename().string(), ec ? 0 : static_cast<int64_t>(size), owner);
  if (!upload.ok()) return upload.status();
  std::string buffer(1 << 20, '\0');
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (in.gcount() > 0) {
      auto status = (*upload)->Append(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
      if (!status.ok()) return status;
    }
  }
  return (*upload)->Finish();
}

absl::StatusOr<StoredTrace> TraceStore::Commit(const std::string& temp_path, const std::string& id,
                                               const std::string& name, int64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string final_path = PathOf(id);
  StoredTrace stored{id, name, size, fs::exists(final_path)};
  if (stored.already_stored) {
    ::unlink(temp_path.c_str());
  } else if (::rename(temp_path.c_str(), final_path.c_str()) != 0) {
    return Errno(absl::StrCat("storing trace ", id));
  }
  // The display name travels beside the content, written whole or not at all (another replica
  // may read it at any moment).
  const std::string name_temp = absl::StrCat(temp_path, ".name");
  {
    std::ofstream out(name_temp);
    out << name;
  }
  if (::rename(name_temp.c_str(), (final_path + ".name").c_str()) != 0) ::unlink(name_temp.c_str());
  return stored;
}

absl::StatusOr<StoredTrace> TraceStore::CommitForTenant(const std::string& temp_path,
                                                        const std::string& content_id,
                                                        const std::string& name, int64_t size,
                                                        const TraceOwner& owner) {
  const std::string id = auth::TenantObjectId(owner.tenant, content_id);
  std::lock_guard<std::mutex> lock(mu_);
  const std::string blob = BlobPath(content_id);
  // The tenant's own record decides `already_stored`: whether anyone else holds these bytes
  // is not the caller's business.
  const std::string record_path = OwnerRecordPath(id);
  StoredTrace stored{id, name, size, fs::exists(record_path), owner.tenant, owner.subject};
  if (fs::exists(blob)) {
    ::unlink(temp_path.c_str());
  } else if (::rename(temp_path.c_str(), blob.c_str()) != 0) {
    return Errno(absl::StrCat("storing trace ", id));
  }
  if (stored.already_stored) {
    auto existing = ReadOwnerRecord(id);
    if (existing.ok()) {
      existing->already_stored = true;
      return existing;
    }
  }
  nlohmann::json record = {{"tenant", owner.tenant},
                           {"owner", owner.subject},
                           {"content", content_id},
                           {"name", name},
                           {"size_bytes", size}};
  const absl::Status written = WriteAtomically(
      record_path, record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (!written.ok()) return written;
  return stored;
}

std::string TraceStore::OwnerRecordPath(const std::string& id) const {
  return (fs::path(dir_) / (id + kOwnerSuffix)).string();
}

std::string TraceStore::BlobPath(const std::string& content_id) const {
  return (fs::path(dir_) / "blobs" / (content_id + ".trace")).string();
}

absl::StatusOr<StoredTrace> TraceStore::ReadOwnerRecord(const std::string& id) const {
  std::ifstream in(OwnerRecordPath(id));
  if (!in) return absl::NotFoundError(absl::StrCat("unknown trace '", id, "'"));
  const nlohmann::json record = nlohmann::json::parse(in, nullptr, false);
  if (record.is_discarded() || !record.is_object()) {
    return absl::DataLossError(absl::StrCat("the ownership record of trace ", id, " is damaged"));
  }
  StoredTrace t;
  t.id = id;
  t.tenant = record.value("tenant", "");
  t.owner = record.value("owner", "");
  t.name = record.value("name", "");
  t.size_bytes = record.value("size_bytes", int64_t{0});
  t.already_stored = true;
  return t;
}

absl::StatusOr<StoredTrace> TraceStore::Find(const std::string& id) const {
  if (!IsTraceId(id)) {
    return absl::InvalidArgumentError(absl::StrCat("'", id, "' is not a trace id (64 hex digits)"));
  }
  std::error_code ec;
  if (fs::exists(OwnerRecordPath(id), ec)) return ReadOwnerRecord(id);
  const std::string path = (fs::path(dir_) / (id + ".trace")).string();
  const auto size = fs::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("unknown trace '", id, "'"));
  StoredTrace t{id, "", static_cast<int64_t>(size), true};
  std::ifstream name_file(path + ".name");
  std::getline(name_file, t.name);
  return t;
}

std::string TraceStore::PathOf(const std::string& id) const {
  std::ifstream in(OwnerRecordPath(id));
  if (in) {
    const nlohmann::json record = nlohmann::json::parse(in, nullptr, false);
    const std::string content = record.is_object() ? record.value("content", "") : "";
    if (IsTraceId(content)) return BlobPath(content);
  }
  return (fs::path(dir_) / (id + ".trace")).string();
}

std::vector<StoredTrace> TraceStore::List() const {
  std::vector<StoredTrace> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string file = entry.path().filename().string();
    const bool content = file.size() == 70 && file.substr(64) == ".trace";
    const bool record = file.size() == 64 + sizeof(kOwnerSuffix) - 1 && file.substr(64) == kOwnerSuffix;
    if (content || record) {
      auto t = Find(file.substr(0, 64));
      if (t.ok()) out.push_back(*t);
    }
  }
  return out;
}

int64_t TraceStore::TenantBytes(const std::string& tenant) const {
  int64_t total = 0;
  for (const StoredTrace& t : List()) {
    if (t.tenant == tenant) total += t.size_bytes;
  }
  return total;
}

absl::Status TraceStore::Delete(const std::string& id) {
  auto found = Find(id);
  if (!found.ok()) return found.status();
  std::lock_guard<std::mutex> lock(mu_);
  if (found->tenant.empty()) {
    const std::string path = (fs::path(dir_) / (id + ".trace")).string();
    ::unlink((path + ".name").c_str());
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return Errno(absl::StrCat("deleting ", id));
    return absl::OkStatus();
  }
  const std::string blob = PathOf(id);
  if (::unlink(OwnerRecordPath(id).c_str()) != 0 && errno != ENOENT) {
    return Errno(absl::StrCat("deleting ", id));
  }
  // The bytes go with their last record.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.size() == 64 + sizeof(kOwnerSuffix) - 1 && file.substr(64) == kOwnerSuffix &&
        PathOf(file.substr(0, 64)) == blob) {
      return absl::OkStatus();
    }
  }
  ::unlink(blob.c_str());
  return absl::OkStatus();
}

}  // namespace tw
