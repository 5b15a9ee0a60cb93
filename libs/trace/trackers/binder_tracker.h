#pragma once
// Turns the kernel's binder ftrace events (from proto or systrace text) into slices on the
// threads involved, as trace_processor does: a synchronous call is a "binder transaction"
// slice on the client thread (until the reply arrives) and a "binder reply" slice on the
// server thread (from receipt until it sends the reply), joined by a flow; a oneway call is
// a "binder transaction async" instant on the sender and a "binder async rcv" instant on the
// receiver. binder_command / binder_return (BC_* / BR_*) let failed transactions end their
// slices; binder_transaction_alloc_buf adds buffer sizes; binder_lock* make lock slices.
// The android.binder stdlib module pairs these slices into android_binder_txns.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class BinderTracker {
 public:
  explicit BinderTracker(TraceContext* ctx);

  // Handles `raw` if it is a binder event (the raw row is stored by the caller either way).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  // Where a thread is in one transaction, as seen from commands, returns and transactions.
  enum class State : uint8_t {
    kSndAfterBcTransaction,
    kSndAfterTransaction,
    kSndAfterBrTransactionComplete,
    kSndAfterTransactionReceived,
    kRcvAfterTransactionReceived,
    kRcvAfterBrTransaction,
    kRcvAfterBcReply,
    kRcvAfterTransaction,
  };
  struct Frame {
    State state;
    bool has_txn = false;
    bool is_oneway = false;
    bool is_reply = false;
  };
  struct Outstanding {
    bool is_reply = false;
    bool is_oneway = false;
    std::vector<Arg> args;
    uint32_t send_track = 0;
    std::optional<uint32_t> send_slice;
  };

  void Transaction(int64_t ts, int32_t tid, int64_t id, int64_t dest_node, int64_t dest_tgid,
                   int64_t dest_tid, bool is_reply, uint32_t flags, uint32_t code);
  void TransactionReceived(int64_t ts, int32_t tid, int64_t id);
  void Command(int32_t tid, uint32_t cmd);
  void Return(int64_t ts, int32_t tid, uint32_t cmd);
  void AllocBuf(int32_t tid, uint64_t data_size, uint64_t offsets_size);
  void Lock(int64_t ts, int32_t tid);
  void Locked(int64_t ts, int32_t tid);
  void Unlock(int64_t ts, int32_t tid);

  uint32_t ThreadTrack(int32_t tid);
  Frame* Top(int32_t tid);
  Frame* Push(int32_t tid, State state);
  void Pop(int32_t tid);
  // The innermost open binder slice on `track` named `name` (binder args go to it): slices
  // above it (atrace, locks) do not hide it, ended ones are skipped, as in trace_processor.
  std::optional<uint32_t> OpenBinderSlice(uint32_t track, StringId name);
  std::optional<StringId> ThreadName(uint32_t utid);

  TraceContext* ctx_;
  // Event names.
  StringId ev_transaction_, ev_received_, ev_command_, ev_return_, ev_alloc_buf_, ev_lock_,
      ev_locked_, ev_unlock_;
  // Slice names and the category.
  StringId binder_, transaction_, transaction_async_, reply_, async_rcv_, lock_waiting_,
      lock_held_;
  absl::flat_hash_map<int64_t, Outstanding> outstanding_;
  absl::flat_hash_map<uint32_t, std::vector<Frame>> stacks_;  // utid → frames
  absl::flat_hash_map<int32_t, int64_t> attempt_lock_;
  absl::flat_hash_map<int32_t, int64_t> lock_acquired_;
};

}  // namespace tw
