#include "libs/trace/trackers/binder_tracker.h"

#include <cstdio>
#include <string>

namespace tw {
namespace {

// BC_* commands (userspace → driver) and BR_* returns (driver → userspace) that matter.
constexpr uint32_t kBcTransaction = 0x40406300;
constexpr uint32_t kBcReply = 0x40406301;
constexpr uint32_t kBcTransactionSg = 0x40486311;
constexpr uint32_t kBcReplySg = 0x40486312;
constexpr uint32_t kBrTransactionSecCtx = 0x80487202;
constexpr uint32_t kBrTransaction = 0x80407202;
constexpr uint32_t kBrReply = 0x80407203;
constexpr uint32_t kBrDeadReply = 0x7205;
constexpr uint32_t kBrTransactionComplete = 0x7206;
constexpr uint32_t kBrFailedReply = 0x7211;
constexpr uint32_t kBrFrozenReply = 0x7212;
constexpr uint32_t kBrOnewaySpamSuspect = 0x7213;
constexpr uint32_t kBrTransactionPendingFrozen = 0x7214;

constexpr uint32_t kFlagOneWay = 0x01;
constexpr uint32_t kFlagRootObject = 0x04;
constexpr uint32_t kFlagStatusCode = 0x08;
constexpr uint32_t kFlagAcceptFds = 0x10;

std::string Hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%02x", v);
  return buf;
}

// trace_processor's "flags" arg: the hex value and what the bits mean.
std::string FlagsText(uint32_t flags) {
  std::string s = Hex(flags) + " ";
  if (flags & kFlagOneWay) s += "this is a one-way call: async, no return; ";
  if (flags & kFlagRootObject) s += "contents are the components root object; ";
  if (flags & kFlagStatusCode) s += "contents are a 32-bit status code; ";
  if (flags & kFlagAcceptFds) s += "allow replies with file descriptors; ";
  if (flags == 0) s += "No Flags Set";
  return s;
}

// A numeric field, whether the importer stored it as a number (proto) or as text that did not
// parse as decimal (systrace prints hex: "flags=0x10", "cmd=0x40406300").
std::optional<int64_t> NumberOf(const TraceStorage& storage, const FtraceRawData& raw,
                                StringId key) {
  for (const Arg& a : raw.args) {
    if (a.key != key) continue;
    switch (a.value.type) {
      case ArgValue::Type::kInt:
      case ArgValue::Type::kUint:
      case ArgValue::Type::kPointer:
      case ArgValue::Type::kBool:
        return a.value.int_value;
      case ArgValue::Type::kString: {
        const std::string text(storage.Str(a.value.string_value));
        const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
        char* end = nullptr;
        const long long v = std::strtoll(text.c_str(), &end, hex ? 16 : 10);
        if (end == text.c_str()) return std::nullopt;
        return static_cast<int64_t>(v);
      }
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

BinderTracker::BinderTracker(TraceContext* ctx) : ctx_(ctx) {
  TraceStorage* s = ctx->storage;
  ev_transaction_ = s->Intern("binder_transaction");
  ev_received_ = s->Intern("binder_transaction_received");
  ev_command_ = s->Intern("binder_command");
  ev_return_ = s->Intern("binder_return");
  ev_alloc_buf_ = s->Intern("binder_transaction_alloc_buf");
  ev_lock_ = s->Intern("binder_lock");
  ev_locked_ = s->Intern("binder_locked");
  ev_unlock_ = s->Intern("binder_unlock");
  binder_ = s->Intern("binder");
  transaction_ = s->Intern("binder transaction");
  transaction_async_ = s->Intern("binder transaction async");
  reply_ = s->Intern("binder reply");
  async_rcv_ = s->Intern("binder async rcv");
  lock_waiting_ = s->Intern("binder lock waiting");
  lock_held_ = s->Intern("binder lock held");
}

void BinderTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  const StringId n = raw.name;
  if (n != ev_transaction_ && n != ev_received_ && n != ev_command_ && n != ev_return_ &&
      n != ev_alloc_buf_ && n != ev_lock_ && n != ev_locked_ && n != ev_unlock_) {
    return;
  }
  TraceStorage* s = ctx_->storage;
  // Proto field names first, then the names systrace text uses.
  auto num = [&](std::string_view proto_key, std::string_view text_key) {
    std::optional<int64_t> v = NumberOf(*s, raw, s->Intern(proto_key));
    if (!v && !text_key.empty()) v = NumberOf(*s, raw, s->Intern(text_key));
    return v;
  };
  const int32_t tid = raw.pid;
  if (n == ev_transaction_) {
    const auto id = num("debug_id", "transaction");
    const auto node = num("target_node", "dest_node");
    const auto proc = num("to_proc", "dest_proc");
    const auto thread = num("to_thread", "dest_thread");
    const auto reply = num("reply", "");
    if (!id || !node || !proc || !thread || !reply) {
      s->IncrementStat("binder_parse_errors");
      return;
    }
    Transaction(ts, tid, *id, *node, *proc, *thread, *reply == 1,
                static_cast<uint32_t>(num("flags", "").value_or(0)),
                static_cast<uint32_t>(num("code", "").value_or(0)));
  } else if (n == ev_received_) {
    if (auto id = num("debug_id", "transaction")) TransactionReceived(ts, tid, *id);
  } else if (n == ev_command_) {
    if (auto cmd = num("cmd", "")) Command(tid, static_cast<uint32_t>(*cmd));
  } else if (n == ev_return_) {
    if (auto cmd = num("cmd", "")) Return(ts, tid, static_cast<uint32_t>(*cmd));
  } else if (n == ev_alloc_buf_) {
    AllocBuf(tid, static_cast<uint64_t>(num("data_size", "").value_or(0)),
             static_cast<uint64_t>(num("offsets_size", "").value_or(0)));
  } else if (n == ev_lock_) {
    Lock(ts, tid);
  } else if (n == ev_locked_) {
    Locked(ts, tid);
  } else {
    Unlock(ts, tid);
  }
}

uint32_t BinderTracker::ThreadTrack(int32_t tid) {
  return ctx_->tracks.InternThreadTrack(ctx_->processes.GetOrCreateThread(tid));
}

BinderTracker::Frame* BinderTracker::Top(int32_t tid) {
  auto it = stacks_.find(ctx_->processes.GetOrCreateThread(tid));
  if (it == stacks_.end() || it->second.empty()) return nullptr;
  return &it->second.back();
}

BinderTracker::Frame* BinderTracker::Push(int32_t tid, State state) {
  std::vector<Frame>& stack = stacks_[ctx_->processes.GetOrCreateThread(tid)];
  stack.push_back(Frame{state});
  return &stack.back();
}

void BinderTracker::Pop(int32_t tid) {
  auto it = stacks_.find(ctx_->processes.GetOrCreateThread(tid));
  if (it == stacks_.end()) return;
  if (!it->second.empty()) it->second.pop_back();
  if (it->second.empty()) stacks_.erase(it);
}

std::optional<uint32_t> BinderTracker::OpenBinderSlice(uint32_t track, StringId name) {
  return ctx_->slices.FindOpenSlice(track, binder_, name);
}

std::optional<StringId> BinderTracker::ThreadName(uint32_t utid) {
  const StringId name = ctx_->storage->thread.name[utid];
  if (name == kNullStringId) return std::nullopt;
  return name;
}

void BinderTracker::Transaction(int64_t ts, int32_t tid, int64_t id, int64_t dest_node,
                                int64_t dest_tgid, int64_t dest_tid, bool is_reply,
                                uint32_t flags, uint32_t code) {
  TraceStorage* s = ctx_->storage;
  ArgsTracker& a = ctx_->args;
  const uint32_t track = ThreadTrack(tid);
  std::vector<Arg> args = {
      a.MakeArg("transaction id", ArgValue::Int(id)),
      a.MakeArg("destination node", ArgValue::Int(dest_node)),
      a.MakeArg("destination process", ArgValue::Int(dest_tgid)),
      a.MakeArg("reply transaction?", ArgValue::Bool(is_reply)),
      a.MakeArg("flags", ArgValue::String(s->Intern(FlagsText(flags)))),
      a.MakeArg("code", ArgValue::String(s->Intern(Hex(code) + " Java Layer Dependent"))),
      a.MakeArg("calling tid", ArgValue::Uint(static_cast<uint32_t>(tid))),
  };
  const bool is_oneway = (flags & kFlagOneWay) != 0;
  std::optional<uint32_t> slice;
  if (is_reply) {
    // The server's reply ends its "binder reply" slice, which learns who it replied to.
    const uint32_t dest_utid = ctx_->processes.GetOrCreateThread(static_cast<int32_t>(dest_tid));
    if (auto open = OpenBinderSlice(track, reply_)) {
      std::vector<Arg> dest = {a.MakeArg("destination thread", ArgValue::Int(dest_tid))};
      if (auto name = ThreadName(dest_utid)) {
        dest.push_back(a.MakeArg("destination name", ArgValue::String(*name)));
      }
      ctx_->slices.AddArgs(*open, dest);
    }
    slice = ctx_->slices.End(ts, track, kNullStringId, kNullStringId, args);
  } else if (is_oneway) {
    slice = ctx_->slices.Scoped(ts, track, binder_, transaction_async_, 0, args);
  } else {
    slice = ctx_->slices.Begin(ts, track, binder_, transaction_, args);
  }
  Outstanding& out = outstanding_[id];
  out = Outstanding{is_reply, is_oneway, std::move(args), track, slice};

  if (Frame* f = Top(tid)) {
    if (f->state == State::kSndAfterBcTransaction) {
      f->state = State::kSndAfterTransaction;
      f->has_txn = true;
      f->is_oneway = is_oneway;
      f->is_reply = is_reply;
    } else if (f->state == State::kRcvAfterBcReply) {
      f->state = State::kRcvAfterTransaction;
      f->has_txn = true;
      f->is_oneway = is_oneway;
      f->is_reply = is_reply;
    } else if (f->state == State::kRcvAfterTransactionReceived) {
      Pop(tid);  // commands are not traced: the frame would never be finished
    }
  }
  s->ExtendBounds(ts);
}

void BinderTracker::TransactionReceived(int64_t ts, int32_t tid, int64_t id) {
  auto it = outstanding_.find(id);
  // Unknown transaction (sent before the trace began): its kind, and so its slice, is unknown.
  if (it == outstanding_.end()) return;
  Outstanding txn = std::move(it->second);
  outstanding_.erase(it);
  const uint32_t utid = ctx_->processes.GetOrCreateThread(tid);
  const uint32_t track = ThreadTrack(tid);
  if (!txn.is_oneway) {
    if (!txn.is_reply) {
      Frame* f = Push(tid, State::kRcvAfterTransactionReceived);
      f->has_txn = true;
    } else if (Frame* f = Top(tid); f && f->state == State::kSndAfterBrTransactionComplete) {
      f->state = State::kSndAfterTransactionReceived;
    }
  }
  if (txn.is_reply) {
    // The reply reached the client: its "binder transaction" slice ends.
    ctx_->slices.End(ts, track, kNullStringId, kNullStringId, {});
    return;
  }
  std::optional<uint32_t> received;
  if (txn.is_oneway) {
    received = ctx_->slices.Scoped(ts, track, binder_, async_rcv_, 0, txn.args);
  } else {
    if (auto open = OpenBinderSlice(txn.send_track, transaction_)) {
      std::vector<Arg> dest = {
          ctx_->args.MakeArg("destination thread", ArgValue::Uint(static_cast<uint32_t>(tid)))};
      if (auto name = ThreadName(utid)) {
        dest.push_back(ctx_->args.MakeArg("destination name", ArgValue::String(*name)));
      }
      ctx_->slices.AddArgs(*open, dest);
    }
    received = ctx_->slices.Begin(ts, track, binder_, reply_, {});
  }
  if (txn.send_slice && received) {
    ctx_->storage->flow.Insert(
        {.slice_out = *txn.send_slice, .slice_in = *received, .trace_id = std::nullopt});
  }
  ctx_->storage->ExtendBounds(ts);
}

void BinderTracker::Command(int32_t tid, uint32_t cmd) {
  switch (cmd) {
    case kBcTransaction:
    case kBcTransactionSg:
      Push(tid, State::kSndAfterBcTransaction);
      return;
    case kBcReply:
    case kBcReplySg:
      if (Frame* f = Top(tid); f && f->state == State::kRcvAfterBrTransaction) {
        f->state = State::kRcvAfterBcReply;
      }
      return;
    default:
      return;
  }
}

void BinderTracker::Return(int64_t ts, int32_t tid, uint32_t cmd) {
  Frame* f = Top(tid);
  if (!f) return;
  switch (cmd) {
    case kBrDeadReply:
    case kBrFailedReply:
    case kBrFrozenReply:
    case kBrTransactionPendingFrozen:
      switch (f->state) {
        case State::kSndAfterBcTransaction:
          Pop(tid);  // failed before binder_transaction: no slice was opened
          return;
        case State::kRcvAfterBcReply:
        case State::kSndAfterTransaction:
        case State::kRcvAfterTransaction:
        case State::kSndAfterBrTransactionComplete:
          // A failed synchronous call: its "binder transaction" slice ends here.
          if (f->has_txn && !f->is_oneway && !f->is_reply) {
            ctx_->slices.End(ts, ThreadTrack(tid), kNullStringId, kNullStringId, {});
          }
          Pop(tid);
          return;
        default:
          return;
      }
    case kBrTransactionComplete:
    case kBrOnewaySpamSuspect:
      if (f->state == State::kRcvAfterTransaction || f->state == State::kSndAfterBcTransaction) {
        Pop(tid);
      } else if (f->state == State::kSndAfterTransaction) {
        if (f->has_txn && !f->is_oneway) {
          f->state = State::kSndAfterBrTransactionComplete;
        } else {
          Pop(tid);  // a oneway call is complete
        }
      }
      return;
    case kBrReply:
      if (f->state == State::kSndAfterTransactionReceived) Pop(tid);
      return;
    case kBrTransaction:
    case kBrTransactionSecCtx:
      if (f->state == State::kRcvAfterTransactionReceived) f->state = State::kRcvAfterBrTransaction;
      return;
    default:
      return;
  }
}

void BinderTracker::AllocBuf(int32_t tid, uint64_t data_size, uint64_t offsets_size) {
  if (auto open = OpenBinderSlice(ThreadTrack(tid), transaction_)) {
    ctx_->slices.AddArgs(*open, {ctx_->args.MakeArg("data size", ArgValue::Uint(data_size)),
                                 ctx_->args.MakeArg("offsets size", ArgValue::Uint(offsets_size))});
  }
}

void BinderTracker::Lock(int64_t ts, int32_t tid) {
  attempt_lock_[tid] = ts;
  ctx_->slices.Begin(ts, ThreadTrack(tid), binder_, lock_waiting_, {});
}

void BinderTracker::Locked(int64_t ts, int32_t tid) {
  if (!attempt_lock_.erase(tid)) return;
  const uint32_t track = ThreadTrack(tid);
  ctx_->slices.End(ts, track, kNullStringId, kNullStringId, {});
  ctx_->slices.Begin(ts, track, binder_, lock_held_, {});
  lock_acquired_[tid] = ts;
}

void BinderTracker::Unlock(int64_t ts, int32_t tid) {
  if (!lock_acquired_.erase(tid)) return;
  ctx_->slices.End(ts, ThreadTrack(tid), binder_, lock_held_, {});
}

}  // namespace tw
