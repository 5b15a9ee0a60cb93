#include "libs/trace/reader/chunk_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tw {

ChunkSource::~ChunkSource() = default;

namespace {

// open(2) and read(2) failures keep their errno meaning, with the path in the message. The
// three cases callers branch on get fixed codes rather than relying on ErrnoToStatus's table.
absl::Status FileError(int err, const std::string& what, const std::string& path) {
  const std::string msg = absl::StrCat(what, " ", path, ": ", std::strerror(err));
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return absl::NotFoundError(msg);
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(msg);
    case EISDIR:
      return absl::InvalidArgumentError(msg);
    default:
      return absl::ErrnoToStatus(err, msg);
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<FileChunkSource>> FileChunkSource::Open(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return FileError(errno, "cannot open", path);

  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return FileError(err, "cannot stat", path);
  }
  // open(O_RDONLY) succeeds on a directory; only read() would fail, later and less clearly.
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat("not a trace file: ", path, " is a directory"));
  }
  const int64_t size = S_ISREG(st.st_mode) ? static_cast<int64_t>(st.st_size) : -1;
  return std::unique_ptr<FileChunkSource>(new FileChunkSource(fd, path, size));
}

FileChunkSource::FileChunkSource(int fd, std::string path, int64_t size_bytes)
    : fd_(fd), path_(std::move(path)), size_bytes_(size_bytes) {}

FileChunkSource::~FileChunkSource() { ::close(fd_); }

absl::StatusOr<size_t> FileChunkSource::Read(uint8_t* buf, size_t capacity) {
  for (;;) {
    const ssize_t n = ::read(fd_, buf, capacity);
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) return FileError(errno, "cannot read", path_);
  }
}

absl::StatusOr<size_t> MemoryChunkSource::Read(uint8_t* buf, size_t capacity) {
  const size_t n = std::min(capacity, bytes_.size() - pos_);
  if (n > 0) std::memcpy(buf, bytes_.data() + pos_, n);
  pos_ += n;
  return n;
}

absl::StatusOr<size_t> PrefixedChunkSource::Read(uint8_t* buf, size_t capacity) {
  if (pos_ < prefix_.size()) {
    const size_t n = std::min(capacity, prefix_.size() - pos_);
    std::memcpy(buf, prefix_.data() + pos_, n);
    pos_ += n;
    if (pos_ == prefix_.size()) {
      // The prefix can be large (a detection head); release it once replayed.
      std::string().swap(prefix_);
      pos_ = 0;
    }
    return n;
  }
  return inner_->Read(buf, capacity);
}

absl::StatusOr<std::string> ReadUpTo(ChunkSource* src, size_t max_bytes) {
  std::string out;
  out.resize(max_bytes);
  size_t have = 0;
  while (have < max_bytes) {
    absl::StatusOr<size_t> n =
        src->Read(reinterpret_cast<uint8_t*>(out.data()) + have, max_bytes - have);
    if (!n.ok()) {
      if (have == 0) return n.status();
      break;
    }
    if (*n == 0) break;
    have += *n;
  }
  out.resize(have);
  return out;
}

}  // namespace tw
