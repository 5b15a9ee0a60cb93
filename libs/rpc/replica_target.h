#pragma once
// Where the trace-query replicas are, as every client names them (`--trace-query SPEC`):
//   HOST:PORT                one replica
//   HOST:PORT,HOST:PORT,...  a static list (one machine, or fixed hosts)
//   dns:///NAME:PORT         every address NAME resolves to, re-resolved periodically: the
//                            Kubernetes headless-Service pattern (one A record per ready pod)
// `dns://AUTHORITY/NAME:PORT` is accepted as gRPC spells it; the system resolver is used.

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tw::rpc {

struct ReplicaTarget {
  std::vector<std::string> static_endpoints;  // HOST:PORT each; empty for DNS targets
  std::string dns_name;                       // set for DNS targets
  std::string dns_port;
  bool is_dns() const { return !dns_name.empty(); }
  std::string Describe() const;
};

// INVALID_ARGUMENT for an empty spec, an entry without a port, or a malformed dns: target.
absl::StatusOr<ReplicaTarget> ParseReplicaTarget(const std::string& spec);

// NAME's addresses as HOST:PORT (IPv6 in brackets), sorted and without duplicates.
// UNAVAILABLE when the name does not resolve.
absl::StatusOr<std::vector<std::string>> ResolveEndpoints(const std::string& name,
                                                          const std::string& port);

}  // namespace tw::rpc
