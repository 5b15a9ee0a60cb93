#pragma once
// The trace-query router (DESIGN.md §8): every client of trace-query — the orchestrator, the
// skill-engine, the gateway, the CLI — reaches the replicas through it.
//
// - Replicas come from a static list or from DNS, re-resolved periodically (replica_target.h).
// - A trace id goes to its owner by rendezvous hashing (rendezvous.h); a call that finds its
//   replica UNAVAILABLE (dead, shutting down, gone from DNS) is retried on the next-ranked one,
//   which loads the trace from the shared trace store. A replica that failed is ranked last for
//   `down_penalty`, so the calls after a failure go straight to the survivor.
// - Only UNAVAILABLE fails over: a trace refused for memory, a bad query or a deadline would
//   fail the same way elsewhere and doubling the work would not help.
// - A streamed query fails over only while nothing has reached the caller's RowStream.
// - Uploads land in the shared store through any replica (or the owner, when the checksum is
//   known up front) and are then loaded by the owner. ListTraces asks every replica and merges.
//
// It is a QueryBackend, so everything that takes one (skills, agent tools) routes unchanged.
// The gateway and other callers with RPCs of their own use CallWithFailover / Channel.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/rpc/replica_target.h"
#include "libs/trace/store/query_backend.h"

namespace grpc {
class Channel;
}
namespace tracewise::v1 {
class ListTracesResponse;
class TraceInfo;
}  // namespace tracewise::v1

namespace tw::rpc {

struct RouterOptions {
  // How often a DNS target is re-resolved (and at most how stale the replica set gets).
  absl::Duration refresh_interval = absl::Seconds(5);
  // How long a replica that answered UNAVAILABLE is ranked last.
  absl::Duration down_penalty = absl::Seconds(3);
  // How long a call waits for a replica that failed before to reconnect before skipping it.
  absl::Duration reconnect_timeout = absl::Milliseconds(500);
  int max_message_bytes = 64 << 20;
};

struct RoutedUploadResult {
  std::string trace_id;
  int64_t size_bytes = 0;
  bool already_stored = false;
  std::string stored_by;      // the replica that wrote it into the shared store
  std::string owner;          // the replica that loaded it; empty when not asked to load
  absl::Status load_status;   // the owner's LoadTrace (e.g. RESOURCE_EXHAUSTED); the upload stands
};

// One streamed upload (the gateway passes HTTP bodies through it chunk by chunk, unbuffered).
// Destroying it without Finish() cancels the upload; the replica discards the partial file.
class RoutedUpload {
 public:
  ~RoutedUpload();
  absl::Status Write(std::string_view chunk);
  // `load`: then have the trace's owner load it (the usual next step is a query).
  absl::StatusOr<RoutedUploadResult> Finish(bool load = true);

 private:
  friend class TraceQueryRouter;
  struct Impl;
  explicit RoutedUpload(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class TraceQueryRouter : public QueryBackend {
 public:
  // INVALID_ARGUMENT for a malformed spec. A DNS name that does not resolve yet is not an error
  // (pods start in any order): calls answer UNAVAILABLE until it does.
  static absl::StatusOr<std::unique_ptr<TraceQueryRouter>> Create(const std::string& spec,
                                                                  RouterOptions options = {});
  ~TraceQueryRouter() override;

  absl::StatusOr<QueryResult> Query(const BackendQuery& query) override;
  absl::StatusOr<std::vector<TableColumns>> GetSchema(const std::string& trace_id) override;

  // LoadTrace on the owner (with failover). Fills `info` when given; its `replica` names the
  // replica that loaded it.
  absl::Status LoadTrace(const std::string& trace_id, tracewise::v1::TraceInfo* info = nullptr);
  // Unloads the trace everywhere it may be loaded (the owner and any replica that stood in).
  absl::Status UnloadTrace(const std::string& trace_id);
  // Every replica's list merged by trace id: the state of the replica that holds it loaded
  // (`replica`), the hash owner (`owner`); budgets and use summed, per replica in `replicas`.
  // UNAVAILABLE only when no replica answers.
  absl::Status ListTraces(tracewise::v1::ListTracesResponse* out);

  // `sha256` (hex) when known sends the upload straight to the owner; otherwise any replica
  // that is up takes it. UNAVAILABLE when none is.
  absl::StatusOr<std::unique_ptr<RoutedUpload>> BeginUpload(const std::string& name,
                                                            int64_t size_bytes,
                                                            const std::string& sha256 = "");
  // Hashes the file, uploads it to its owner and has the owner load it.
  absl::StatusOr<RoutedUploadResult> UploadFile(const std::string& path, bool load = true);

  // The replicas now known, sorted.
  std::vector<std::string> Endpoints();
  // The replicas for a trace in the order calls try them: by rendezvous score, replicas that
  // failed recently last.
  std::vector<std::string> Rank(const std::string& trace_id);
  // The hash owner among the known replicas (ignoring health); empty when none is known.
  std::string OwnerOf(const std::string& trace_id);
  const ReplicaTarget& target() const { return target_; }

  // For RPCs of the caller's own: runs `call` on the trace's replicas in rank order until one
  // answers something other than UNAVAILABLE, or `call` sets `*committed` (it has passed output
  // on, so a retry would duplicate it). Returns the last status.
  using ReplicaCall = std::function<absl::Status(const std::string& endpoint,
                                                 const std::shared_ptr<grpc::Channel>& channel,
                                                 bool* committed)>;
  absl::Status CallWithFailover(const std::string& trace_id, const ReplicaCall& call);
  // The channel to one replica (it must be among Endpoints()); null otherwise.
  std::shared_ptr<grpc::Channel> Channel(const std::string& endpoint);
  // Re-resolves a DNS target now (also done periodically and when every replica failed).
  void Refresh();

 private:
  struct Replica;
  TraceQueryRouter(ReplicaTarget target, RouterOptions options);
  std::vector<std::shared_ptr<Replica>> Snapshot();
  std::vector<std::shared_ptr<Replica>> Ranked(std::string_view key);
  void SetEndpoints(const std::vector<std::string>& endpoints);
  void MarkDown(Replica& replica);
  bool Reachable(Replica& replica);
  void RefreshLoop();
  using InternalCall = std::function<absl::Status(Replica& replica, bool* committed)>;
  absl::Status ForEachRanked(std::string_view key, const InternalCall& call);

  struct State;
  ReplicaTarget target_;
  RouterOptions options_;
  std::unique_ptr<State> state_;
};

// QueryBackend for a `--trace-query SPEC` flag: a router (any spec), or INVALID_ARGUMENT.
absl::StatusOr<std::unique_ptr<TraceQueryRouter>> ConnectTraceQuery(const std::string& spec);

}  // namespace tw::rpc
