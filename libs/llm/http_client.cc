#include "libs/llm/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tw::llm {
namespace {

using Clock = std::chrono::steady_clock;

// Error documents are small; a misbehaving server must not make us buffer without bound.
constexpr size_t kMaxErrorBodyBytes = 1 << 20;

void GlobalInitOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// "scheme://host:port" of a URL, for error messages (never the path or query).
std::string Origin(const std::string& url) {
  size_t scheme_end = url.find("://");
  size_t host_start = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  size_t path_start = url.find_first_of("/?#", host_start);
  return url.substr(0, path_start);
}

int64_t MsSince(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

struct Transfer {
  const HttpRequest* request = nullptr;
  HttpResponse response;
  Clock::time_point started;
  Clock::time_point last_activity;
  bool cancelled = false;       // is_cancelled() said so
  bool handler_stopped = false; // on_body returned false
  bool idle_timed_out = false;
  bool deadline_hit = false;

  bool Is2xx() const { return response.status >= 200 && response.status < 300; }

  // Shared by the progress and write callbacks: true = abort the transfer now.
  bool ShouldAbort() {
    if (request->is_cancelled && request->is_cancelled()) {
      cancelled = true;
      return true;
    }
    const Clock::time_point now = Clock::now();
    if (request->deadline && now >= *request->deadline) {
      deadline_hit = true;
      return true;
    }
    if (request->idle_timeout_ms > 0 &&
        now - last_activity > std::chrono::milliseconds(request->idle_timeout_ms)) {
      idle_timed_out = true;
      return true;
    }
    return false;
  }
};

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  std::string_view line(data, n);
  t->last_activity = Clock::now();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    // A new status line (also after "100 Continue" or a redirect): start over.
    t->response.headers.clear();
    size_t space = line.find(' ');
    t->response.status =
        space == std::string_view::npos ? 0 : std::atoi(std::string(line.substr(space + 1, 3)).c_str());
    return n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  std::string name(line.substr(0, colon));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  t->response.headers[name] = std::string(value);
  return n;
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  t->last_activity = Clock::now();
  t->response.body_bytes += static_cast<int64_t>(n);
  if (t->request->is_cancelled && t->request->is_cancelled()) {
    t->cancelled = true;
    return 0;  // CURLE_WRITE_ERROR
  }
  if (t->Is2xx() && t->request->on_body) {
    if (!t->request->on_body(std::string_view(data, n))) {
      t->handler_stopped = true;
      return 0;
    }
    return n;
  }
  if (t->response.body.size() < kMaxErrorBodyBytes) {
    t->response.body.append(data, std::min(n, kMaxErrorBodyBytes - t->response.body.size()));
  }
  return n;
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<Transfer*>(user)->ShouldAbort() ? 1 : 0;
}

// Returns the handle to its pool, or cleans it up.
struct CurlReleaser {
  ConnectionPool* pool = nullptr;
  void operator()(CURL* c) const {
    if (pool) {
      pool->Release(c);
    } else {
      curl_easy_cleanup(c);
    }
  }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

}  // namespace

ConnectionPool::~ConnectionPool() {
  for (void* h : idle_) curl_easy_cleanup(static_cast<CURL*>(h));
}

void* ConnectionPool::Acquire() {
  GlobalInitOnce();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      void* h = idle_.back();
      idle_.pop_back();
      return h;
    }
  }
  return curl_easy_init();
}

void ConnectionPool::Release(void* handle) {
  if (handle == nullptr) return;
  // Forget this request's options (they point at its memory) but keep the live connections.
  curl_easy_reset(static_cast<CURL*>(handle));
  std::lock_guard<std::mutex> lock(mu_);
  if (idle_.size() < kMaxIdle) {
    idle_.push_back(handle);
    return;
  }
  curl_easy_cleanup(static_cast<CURL*>(handle));
}

absl::StatusOr<HttpResponse> HttpPost(const HttpRequest& request, ConnectionPool* pool) {
  GlobalInitOnce();
  const std::string origin = Origin(request.url);
  Transfer t;
  t.request = &request;
  t.started = t.last_activity = Clock::now();

  int64_t total_timeout_ms = 0;  // 0 = no limit for curl
  if (request.deadline) {
    total_timeout_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           *request.deadline - t.started).count();
    if (total_timeout_ms <= 0) {
      return absl::DeadlineExceededError(
          absl::StrCat("deadline passed before the request to ", origin, " was sent"));
    }
  }

  std::unique_ptr<CURL, CurlReleaser> curl(
      pool ? static_cast<CURL*>(pool->Acquire()) : curl_easy_init(), CurlReleaser{pool});
  if (!curl) return absl::InternalError("curl_easy_init failed");
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  for (const auto& [name, value] : request.headers) {
    std::string line = value.empty() ? name + ";" : name + ": " + value;
    headers.reset(curl_slist_append(headers.release(), line.c_str()));
  }
  // No "Expect: 100-continue" round trip for large prompts.
  headers.reset(curl_slist_append(headers.release(), "Expect:"));

  char error_buffer[CURL_ERROR_SIZE] = {0};
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(request.connect_timeout_ms));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(total_timeout_ms));
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &OnBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &OnProgress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &t);

  const CURLcode code = curl_easy_perform(c);
  if (code == CURLE_OK) return std::move(t.response);

  const int64_t elapsed_ms = MsSince(t.started);
  if (t.cancelled) return absl::CancelledError(absl::StrCat("request to ", origin, " cancelled"));
  if (t.handler_stopped) {
    return absl::CancelledError(
        absl::StrCat("request to ", origin, " stopped by its response handler"));
  }
  if (t.idle_timed_out) {
    return absl::DeadlineExceededError(absl::StrCat("no data from ", origin, " for ",
                                                    request.idle_timeout_ms, " ms (idle timeout)"));
  }
  double connect_time = 0;
  curl_easy_getinfo(c, CURLINFO_CONNECT_TIME, &connect_time);
  const std::string detail = error_buffer[0] ? std::string(error_buffer) : curl_easy_strerror(code);
  if (t.deadline_hit || (code == CURLE_OPERATION_TIMEDOUT && connect_time > 0)) {
    return absl::DeadlineExceededError(absl::StrCat("request to ", origin,
                                                    " exceeded its deadline after ", elapsed_ms,
                                                    " ms"));
  }
  if (t.response.status != 0) {
    // Headers arrived, then the connection failed: the stream was cut off.
    return absl::UnavailableError(absl::StrCat("connection to ", origin, " dropped mid-response (HTTP ",
                                               t.response.status, ", ", t.response.body_bytes,
                                               " body bytes received): ", detail));
  }
  return absl::UnavailableError(absl::StrCat("cannot reach ", origin, ": ", detail));
}

}  // namespace tw::llm
