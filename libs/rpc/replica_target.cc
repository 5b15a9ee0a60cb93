#include "libs/rpc/replica_target.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace tw::rpc {
namespace {

// HOST:PORT or [V6]:PORT with a numeric port.
bool HasPort(const std::string& endpoint) {
  const size_t colon = endpoint.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == endpoint.size()) return false;
  for (size_t i = colon + 1; i < endpoint.size(); ++i) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(endpoint[i]))) return false;
  }
  return true;
}

}  // namespace

std::string ReplicaTarget::Describe() const {
  if (is_dns()) return absl::StrCat("dns:///", dns_name, ":", dns_port);
  return absl::StrJoin(static_endpoints, ",");
}

absl::StatusOr<ReplicaTarget> ParseReplicaTarget(const std::string& raw) {
  const std::string spec(absl::StripAsciiWhitespace(raw));
  if (spec.empty()) return absl::InvalidArgumentError("no trace-query address given");
  ReplicaTarget target;
  if (spec.rfind("dns:", 0) == 0) {
    // dns:NAME:PORT, dns:///NAME:PORT or dns://AUTHORITY/NAME:PORT.
    std::string rest = spec.substr(4);
    if (rest.rfind("//", 0) == 0) {
      const size_t slash = rest.find('/', 2);
      if (slash == std::string::npos) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", spec, "' is not a DNS target (expected dns:///NAME:PORT)"));
      }
      rest = rest.substr(slash + 1);
    }
    const size_t colon = rest.rfind(':');
    if (!HasPort(rest) || rest.find(',') != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", spec, "' is not a DNS target (expected dns:///NAME:PORT)"));
    }
    target.dns_name = rest.substr(0, colon);
    target.dns_port = rest.substr(colon + 1);
    return target;
  }
  for (absl::string_view part : absl::StrSplit(spec, ',', absl::SkipWhitespace())) {
    std::string endpoint(absl::StripAsciiWhitespace(part));
    if (!HasPort(endpoint)) {
      return absl::InvalidArgumentError(
          absl::StrCat("trace-query address '", endpoint, "' has no port (expected HOST:PORT)"));
    }
    if (std::find(target.static_endpoints.begin(), target.static_endpoints.end(), endpoint) ==
        target.static_endpoints.end()) {
      target.static_endpoints.push_back(endpoint);
    }
  }
  if (target.static_endpoints.empty()) return absl::InvalidArgumentError("no trace-query address given");
  return target;
}

absl::StatusOr<std::vector<std::string>> ResolveEndpoints(const std::string& name,
                                                          const std::string& port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(name.c_str(), port.c_str(), &hints, &found);
  if (rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot resolve trace-query name '", name, "': ", gai_strerror(rc)));
  }
  std::vector<std::string> out;
  for (addrinfo* a = found; a; a = a->ai_next) {
    char host[INET6_ADDRSTRLEN] = {0};
    if (a->ai_family == AF_INET) {
      inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_addr, host, sizeof host);
      out.push_back(absl::StrCat(host, ":", port));
    } else if (a->ai_family == AF_INET6) {
      inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(a->ai_addr)->sin6_addr, host, sizeof host);
      out.push_back(absl::StrCat("[", host, "]:", port));
    }
  }
  ::freeaddrinfo(found);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.empty()) {
    return absl::UnavailableError(absl::StrCat("trace-query name '", name, "' has no addresses"));
  }
  return out;
}

}  // namespace tw::rpc
