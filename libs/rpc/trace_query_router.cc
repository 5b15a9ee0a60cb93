#include "libs/rpc/trace_query_router.h"

#include "libs/rpc/channel_security.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "libs/rpc/grpc_query_backend.h"
#include "libs/rpc/rendezvous.h"
#include "libs/rpc/status_convert.h"
#include "libs/trace/store/sha256.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw::rpc {
namespace {

using Clock = std::chrono::steady_clock;
namespace pb = tracewise::v1;

std::chrono::system_clock::time_point DeadlineIn(absl::Duration d) {
  return std::chrono::system_clock::now() + absl::ToChronoNanoseconds(d);
}

// Higher is "more loaded": the state a merged list reports for a trace.
int StateRank(pb::TraceState state) {
  switch (state) {
    case pb::TRACE_STATE_LOADED: return 4;
    case pb::TRACE_STATE_LOADING: return 3;
    case pb::TRACE_STATE_FAILED: return 2;
    case pb::TRACE_STATE_STORED: return 1;
    default: return 0;
  }
}

}  // namespace

struct TraceQueryRouter::Replica {
  std::string endpoint;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<pb::TraceQuery::Stub> stub;
  std::unique_ptr<GrpcQueryBackend> backend;
  std::atomic<int64_t> down_until_ns{0};   // steady clock; 0 = never failed
  std::atomic<bool> failed_before{false};
  bool down(int64_t now_ns) const { return down_until_ns.load() > now_ns; }
};

struct TraceQueryRouter::State {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::shared_ptr<Replica>> replicas;  // sorted by endpoint
  std::vector<std::string> names;                  // the same order, for hashing
  bool stopping = false;
  int64_t last_refresh_ns = 0;
  std::thread refresher;
  std::atomic<size_t> next_any{0};  // round-robin for uploads without a checksum
};

namespace {
int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}
}  // namespace

absl::StatusOr<std::unique_ptr<TraceQueryRouter>> TraceQueryRouter::Create(const std::string& spec,
                                                                           RouterOptions options) {
  auto target = ParseReplicaTarget(spec);
  if (!target.ok()) return target.status();
  std::unique_ptr<TraceQueryRouter> router(new TraceQueryRouter(*target, options));
  if (!target->is_dns()) {
    router->SetEndpoints(target->static_endpoints);
  } else {
    router->Refresh();
    router->state_->refresher = std::thread([r = router.get()] { r->RefreshLoop(); });
  }
  return router;
}

absl::StatusOr<std::unique_ptr<TraceQueryRouter>> ConnectTraceQuery(const std::string& spec) {
  return TraceQueryRouter::Create(spec);
}

TraceQueryRouter::TraceQueryRouter(ReplicaTarget target, RouterOptions options)
    : target_(std::move(target)), options_(options), state_(std::make_unique<State>()) {}

TraceQueryRouter::~TraceQueryRouter() {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->stopping = true;
  }
  state_->cv.notify_all();
  if (state_->refresher.joinable()) state_->refresher.join();
}

void TraceQueryRouter::SetEndpoints(const std::vector<std::string>& endpoints) {
  std::vector<std::string> sorted = endpoints;
  std::sort(sorted.begin(), sorted.end());
  std::lock_guard<std::mutex> lock(state_->mu);
  if (sorted == state_->names) return;
  std::vector<std::shared_ptr<Replica>> next;
  for (const std::string& endpoint : sorted) {
    auto it = std::find_if(state_->replicas.begin(), state_->replicas.end(),
                           [&](const auto& r) { return r->endpoint == endpoint; });
    if (it != state_->replicas.end()) {
      next.push_back(*it);  // keep its channel (and its health)
      continue;
    }
    auto replica = std::make_shared<Replica>();
    replica->endpoint = endpoint;
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(options_.max_message_bytes);
    args.SetMaxSendMessageSize(options_.max_message_bytes);
    // A replica that comes back (a restarted pod) is noticed within a couple of seconds, not
    // after gRPC's default two-minute backoff ceiling.
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
    args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 200);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
    // Dead peers whose address vanished (no RST) are found by keepalive rather than hanging.
    args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 20000);
    args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5000);
    replica->channel = MakeChannel(endpoint, args);  // TLS when this process is set up for it
    replica->stub = pb::TraceQuery::NewStub(replica->channel);
    replica->backend = std::make_unique<GrpcQueryBackend>(replica->channel);
    next.push_back(std::move(replica));
  }
  state_->replicas = std::move(next);
  state_->names = std::move(sorted);
}

void TraceQueryRouter::Refresh() {
  if (!target_.is_dns()) return;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->last_refresh_ns = NowNs();
  }
  auto resolved = ResolveEndpoints(target_.dns_name, target_.dns_port);
  // A failed lookup keeps the last known replicas: a DNS hiccup must not empty the set.
  if (resolved.ok()) SetEndpoints(*resolved);
}

void TraceQueryRouter::RefreshLoop() {
  std::unique_lock<std::mutex> lock(state_->mu);
  while (!state_->stopping) {
    state_->cv.wait_for(lock, absl::ToChronoNanoseconds(options_.refresh_interval),
                        [&] { return state_->stopping; });
    if (state_->stopping) break;
    lock.unlock();
    Refresh();
    lock.lock();
  }
}

std::vector<std::shared_ptr<TraceQueryRouter::Replica>> TraceQueryRouter::Snapshot() {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->replicas;
}

std::vector<std::shared_ptr<TraceQueryRouter::Replica>> TraceQueryRouter::Ranked(std::string_view key) {
  std::vector<std::shared_ptr<Replica>> replicas;
  std::vector<size_t> order;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    replicas = state_->replicas;
    order = RendezvousRank(state_->names, key);
  }
  std::vector<std::shared_ptr<Replica>> ranked;
  ranked.reserve(order.size());
  for (size_t i : order) ranked.push_back(replicas[i]);
  // Replicas that failed recently go last, in their hash order: the survivor that stands in
  // for a dead owner is the same for every client.
  const int64_t now = NowNs();
  std::stable_partition(ranked.begin(), ranked.end(), [now](const auto& r) { return !r->down(now); });
  return ranked;
}

std::vector<std::string> TraceQueryRouter::Endpoints() {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->names;
}

std::vector<std::string> TraceQueryRouter::Rank(const std::string& trace_id) {
  std::vector<std::string> out;
  for (const auto& r : Ranked(trace_id)) out.push_back(r->endpoint);
  return out;
}

std::string TraceQueryRouter::OwnerOf(const std::string& trace_id) {
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->names.empty()) return "";
  return state_->names[RendezvousRank(state_->names, trace_id).front()];
}

std::shared_ptr<grpc::Channel> TraceQueryRouter::Channel(const std::string& endpoint) {
  for (const auto& r : Snapshot()) {
    if (r->endpoint == endpoint) return r->channel;
  }
  return nullptr;
}

void TraceQueryRouter::MarkDown(Replica& replica) {
  replica.failed_before = true;
  replica.down_until_ns = NowNs() + absl::ToInt64Nanoseconds(options_.down_penalty);
}

bool TraceQueryRouter::Reachable(Replica& replica) {
  // Replicas that never failed are called directly (gRPC connects on the first call). One that
  // failed before is skipped while its channel is still failing, and otherwise must connect
  // within the reconnect timeout: a call never waits on a dead peer for longer than that.
  if (!replica.failed_before.load()) return true;
  const grpc_connectivity_state state = replica.channel->GetState(true);
  bool connected = state == GRPC_CHANNEL_READY;
  if (!connected && state != GRPC_CHANNEL_TRANSIENT_FAILURE) {
    connected = replica.channel->WaitForConnected(DeadlineIn(options_.reconnect_timeout));
  }
  if (connected) {
    replica.failed_before = false;
    replica.down_until_ns = 0;
  }
  return connected;
}

absl::Status TraceQueryRouter::ForEachRanked(std::string_view key, const InternalCall& call) {
  for (int round = 0; round < 2; ++round) {
    std::vector<std::shared_ptr<Replica>> ranked = Ranked(key);
    absl::Status last = absl::UnavailableError(
        absl::StrCat("no trace-query replica known for ", target_.Describe()));
    for (const auto& replica : ranked) {
      if (!Reachable(*replica)) {
        MarkDown(*replica);
        last = absl::UnavailableError(absl::StrCat("trace-query replica ", replica->endpoint,
                                                   " is unreachable"));
        continue;
      }
      bool committed = false;
      absl::Status status = call(*replica, &committed);
      if (status.code() != absl::StatusCode::kUnavailable) return status;
      MarkDown(*replica);
      last = status;
      if (committed) return status;
    }
    // Every replica failed: the set may have changed under us (pods rescheduled with new
    // addresses). Re-resolve once, at most once a second, and try the new set.
    if (!target_.is_dns()) return last;
    int64_t since;
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      since = NowNs() - state_->last_refresh_ns;
    }
    if (round == 1 || since < 1'000'000'000) return last;
    const std::vector<std::string> before = Endpoints();
    Refresh();
    if (Endpoints() == before) return last;
  }
  return absl::UnavailableError("unreachable");
}

absl::Status TraceQueryRouter::CallWithFailover(const std::string& trace_id, const ReplicaCall& call) {
  return ForEachRanked(trace_id, [&](Replica& replica, bool* committed) {
    return call(replica.endpoint, replica.channel, committed);
  });
}

absl::StatusOr<QueryResult> TraceQueryRouter::Query(const BackendQuery& query) {
  // Rows handed to the caller cannot be taken back: once any arrive, no failover.
  std::atomic<bool> delivered{false};
  RowStream relay;
  BackendQuery routed = query;
  if (query.stream) {
    relay.batch_rows = query.stream->batch_rows;
    relay.on_columns = [&](const std::vector<std::string>& columns) {
      delivered = true;
      return query.stream->on_columns ? query.stream->on_columns(columns) : true;
    };
    relay.on_rows = [&](std::vector<std::vector<SqlValue>>&& rows) {
      delivered = true;
      return query.stream->on_rows(std::move(rows));
    };
    routed.stream = &relay;
  }
  absl::StatusOr<QueryResult> result = absl::UnavailableError("no trace-query replica");
  absl::Status status = ForEachRanked(query.trace_id, [&](Replica& replica, bool* committed) {
    result = replica.backend->Query(routed);
    *committed = delivered.load();
    return result.status();
  });
  if (!status.ok()) return status;
  return result;
}

absl::StatusOr<std::vector<TableColumns>> TraceQueryRouter::GetSchema(const std::string& trace_id) {
  absl::StatusOr<std::vector<TableColumns>> result = absl::UnavailableError("no trace-query replica");
  absl::Status status = ForEachRanked(trace_id, [&](Replica& replica, bool*) {
    result = replica.backend->GetSchema(trace_id);
    return result.status();
  });
  if (!status.ok()) return status;
  return result;
}

absl::Status TraceQueryRouter::LoadTrace(const std::string& trace_id, pb::TraceInfo* info) {
  return ForEachRanked(trace_id, [&](Replica& replica, bool*) {
    grpc::ClientContext context;
    Authorize(context);  // the caller this thread works for
    pb::LoadTraceRequest request;
    request.set_trace_id(trace_id);
    pb::TraceInfo response;
    const grpc::Status status = replica.stub->LoadTrace(&context, request, &response);
    if (status.ok() && info) {
      *info = response;
      info->set_replica(replica.endpoint);
      info->set_owner(OwnerOf(trace_id));
    }
    return FromGrpc(status);
  });
}

absl::Status TraceQueryRouter::UnloadTrace(const std::string& trace_id) {
  absl::Status first_error;
  int answered = 0;
  for (const auto& replica : Snapshot()) {
    grpc::ClientContext context;
    Authorize(context);  // the caller this thread works for
    context.set_deadline(DeadlineIn(absl::Seconds(10)));
    pb::UnloadTraceRequest request;
    request.set_trace_id(trace_id);
    pb::UnloadTraceResponse response;
    const grpc::Status status = replica->stub->UnloadTrace(&context, request, &response);
    if (status.error_code() == grpc::StatusCode::UNAVAILABLE) {
      MarkDown(*replica);
      continue;
    }
    ++answered;
    if (!status.ok() && first_error.ok()) first_error = FromGrpc(status);
  }
  if (answered == 0) return absl::UnavailableError(absl::StrCat("no trace-query replica answered (", target_.Describe(), ")"));
  return first_error;
}

absl::Status TraceQueryRouter::ListTraces(pb::ListTracesResponse* out) {
  const std::vector<std::shared_ptr<Replica>> replicas = Snapshot();
  // Every replica at once: the slowest one sets the time, not their sum.
  std::vector<std::future<std::pair<grpc::Status, pb::ListTracesResponse>>> answers;
  for (const auto& replica : replicas) {
    // The caller travels with the task (the scope of this thread does not).
    answers.push_back(std::async(std::launch::async, [replica, authorization = CurrentAuthorization()] {
      grpc::ClientContext context;
      Authorize(context, authorization);
      context.set_deadline(DeadlineIn(absl::Seconds(10)));
      pb::ListTracesResponse response;
      const grpc::Status status = replica->stub->ListTraces(&context, pb::ListTracesRequest(), &response);
      return std::make_pair(status, std::move(response));
    }));
  }
  out->Clear();
  std::map<std::string, pb::TraceInfo> merged;
  int reachable = 0;
  std::string last_error = "no trace-query replica known";
  for (size_t i = 0; i < replicas.size(); ++i) {
    auto [status, response] = answers[i].get();
    pb::ReplicaStatus* rs = out->add_replicas();
    rs->set_endpoint(replicas[i]->endpoint);
    if (!status.ok()) {
      if (status.error_code() == grpc::StatusCode::UNAVAILABLE) MarkDown(*replicas[i]);
      rs->set_error(status.error_message());
      last_error = absl::StrCat(replicas[i]->endpoint, ": ", status.error_message());
      continue;
    }
    ++reachable;
    rs->set_reachable(true);
    rs->set_memory_budget_bytes(response.memory_budget_bytes());
    rs->set_memory_used_bytes(response.memory_used_bytes());
    out->set_memory_budget_bytes(out->memory_budget_bytes() + response.memory_budget_bytes());
    out->set_memory_used_bytes(out->memory_used_bytes() + response.memory_used_bytes());
    for (pb::TraceInfo& t : *response.mutable_traces()) {
      if (t.state() == pb::TRACE_STATE_LOADED) rs->set_loaded_traces(rs->loaded_traces() + 1);
      t.set_replica(replicas[i]->endpoint);
      auto it = merged.find(t.trace_id());
      const bool owner = replicas[i]->endpoint == OwnerOf(t.trace_id());
      // The most loaded state wins; between equals, the owner's.
      if (it == merged.end() || StateRank(t.state()) > StateRank(it->second.state()) ||
          (StateRank(t.state()) == StateRank(it->second.state()) && owner)) {
        merged[t.trace_id()] = t;
      }
    }
  }
  if (reachable == 0) {
    out->Clear();
    return absl::UnavailableError(absl::StrCat("no trace-query replica answered: ", last_error));
  }
  for (auto& [id, info] : merged) {
    info.set_owner(OwnerOf(id));
    *out->add_traces() = std::move(info);
  }
  return absl::OkStatus();
}

// ---- uploads ----

struct RoutedUpload::Impl {
  TraceQueryRouter* router = nullptr;
  std::string endpoint;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<pb::TraceQuery::Stub> stub;
  grpc::ClientContext context;
  pb::UploadTraceResponse response;
  std::unique_ptr<grpc::ClientWriter<pb::UploadTraceRequest>> writer;
  pb::UploadTraceRequest chunk;
  bool broken = false;
  bool finished = false;
};

RoutedUpload::RoutedUpload(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

RoutedUpload::~RoutedUpload() {
  if (impl_ && impl_->writer && !impl_->finished) {
    impl_->context.TryCancel();
    impl_->writer->Finish();
  }
}

absl::Status RoutedUpload::Write(std::string_view bytes) {
  if (impl_->finished) return absl::FailedPreconditionError("upload already finished");
  if (impl_->broken) return absl::UnavailableError(absl::StrCat("upload to ", impl_->endpoint, " broke off"));
  impl_->chunk.Clear();
  impl_->chunk.set_chunk(std::string(bytes));
  if (!impl_->writer->Write(impl_->chunk)) {
    // The replica closed the stream: its status (e.g. RESOURCE_EXHAUSTED) comes from Finish.
    impl_->broken = true;
    impl_->finished = true;
    const grpc::Status status = impl_->writer->Finish();
    if (!status.ok()) return FromGrpc(status);
    return absl::UnavailableError(absl::StrCat("upload to ", impl_->endpoint, " broke off"));
  }
  return absl::OkStatus();
}

absl::StatusOr<RoutedUploadResult> RoutedUpload::Finish(bool load) {
  if (impl_->finished) return absl::FailedPreconditionError("upload already finished");
  impl_->finished = true;
  impl_->writer->WritesDone();
  const grpc::Status status = impl_->writer->Finish();
  if (!status.ok()) return FromGrpc(status);
  RoutedUploadResult result;
  result.trace_id = impl_->response.trace_id();
  result.size_bytes = impl_->response.size_bytes();
  result.already_stored = impl_->response.already_stored();
  result.stored_by = impl_->endpoint;
  if (load) {
    pb::TraceInfo info;
    result.load_status = impl_->router->LoadTrace(result.trace_id, &info);
    if (result.load_status.ok()) result.owner = info.replica();
  }
  return result;
}

absl::StatusOr<std::unique_ptr<RoutedUpload>> TraceQueryRouter::BeginUpload(const std::string& name,
                                                                            int64_t size_bytes,
                                                                            const std::string& sha256) {
  // Nothing has been sent when a replica is skipped here, so trying the next one is safe;
  // once bytes flow, a broken stream is the caller's to retry (the bytes are not kept).
  std::vector<std::shared_ptr<Replica>> order;
  if (!sha256.empty()) {
    order = Ranked(sha256);
  } else {
    order = Ranked("");
    const size_t n = order.size();
    if (n > 1) {
      const size_t start = state_->next_any++ % n;
      std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(start), order.end());
      const int64_t now = NowNs();
      std::stable_partition(order.begin(), order.end(), [now](const auto& r) { return !r->down(now); });
    }
  }
  for (const auto& replica : order) {
    if (!replica->channel->WaitForConnected(DeadlineIn(options_.reconnect_timeout))) {
      MarkDown(*replica);
      continue;
    }
    auto impl = std::make_unique<RoutedUpload::Impl>();
    impl->router = this;
    impl->endpoint = replica->endpoint;
    impl->channel = replica->channel;
    impl->stub = pb::TraceQuery::NewStub(replica->channel);
    Authorize(impl->context);  // the caller this thread works for
    impl->writer = impl->stub->UploadTrace(&impl->context, &impl->response);
    pb::UploadTraceRequest first;
    first.mutable_metadata()->set_name(name);
    first.mutable_metadata()->set_size_bytes(size_bytes);
    first.mutable_metadata()->set_sha256(sha256);
    if (!impl->writer->Write(first)) {
      const grpc::Status status = impl->writer->Finish();
      impl->finished = true;
      if (status.error_code() != grpc::StatusCode::UNAVAILABLE) return FromGrpc(status);
      MarkDown(*replica);
      continue;
    }
    return std::unique_ptr<RoutedUpload>(new RoutedUpload(std::move(impl)));
  }
  return absl::UnavailableError(
      absl::StrCat("no trace-query replica is up to take the upload (", target_.Describe(), ")"));
}

absl::StatusOr<RoutedUploadResult> TraceQueryRouter::UploadFile(const std::string& path, bool load) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  // The checksum first (a quick read): it names the owner, so the upload goes straight there,
  // and the replica verifies it.
  std::string buffer(1 << 20, '\0');
  Sha256 hash;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
    while (in) {
      in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      if (in.gcount() > 0) hash.Update(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
    }
  }
  const std::string id = hash.HexDigest();
  // A replica that dies mid-upload leaves nothing visible (uploads commit atomically): the
  // next-ranked one gets the whole file again.
  absl::Status last = absl::UnavailableError("no trace-query replica");
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto upload = BeginUpload(fs::path(path).filename().string(), static_cast<int64_t>(size), id);
    if (!upload.ok()) return upload.status();
    std::ifstream in(path, std::ios::binary);
    absl::Status status;
    while (status.ok() && in) {
      in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      if (in.gcount() <= 0) break;
      status = (*upload)->Write(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
    }
    if (status.ok()) {
      auto result = (*upload)->Finish(load);
      if (result.ok() || result.status().code() != absl::StatusCode::kUnavailable) return result;
      status = result.status();
    }
    if (status.code() != absl::StatusCode::kUnavailable) return status;
    last = status;
  }
  return last;
}

}  // namespace tw::rpc
