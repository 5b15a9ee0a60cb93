#include "libs/trace/trackers/slice_tracker.h"

#include <algorithm>
#include <string_view>

#include "libs/trace/trackers/arg_merge.h"

namespace tw {

SliceTracker::SliceTracker(TraceStorage* storage, ArgsTracker* args)
    : storage_(storage), args_(args) {}

void SliceTracker::TranslateArgs(std::vector<Arg>* args) {
  if (!translations_.has_arg_translations()) return;
  // The hashes trace_processor translates (only unsigned values), each with the key its
  // translation is stored under and the table that holds it.
  struct Rule {
    std::string_view hash_key, name_key;
    const absl::flat_hash_map<uint64_t, StringId>* table;
  };
  const Rule rules[] = {
      {"chrome_histogram_sample.name_hash", "chrome_histogram_sample.name",
       &translations_.chrome_histogram},
      {"chrome_user_event.action_hash", "chrome_user_event.action",
       &translations_.chrome_user_event},
      {"chrome_hashed_performance_mark.site_hash", "chrome_hashed_performance_mark.site",
       &translations_.performance_mark_site},
      {"chrome_hashed_performance_mark.mark_hash", "chrome_hashed_performance_mark.mark",
       &translations_.performance_mark_mark},
      {"chrome_trigger.name_hash", "chrome_trigger.name", &translations_.chrome_study},
  };
  ArgSetBuilder out;
  bool changed = false;
  for (const Arg& a : *args) {
    out.AddOrUpdate(a);
    if (a.value.type != ArgValue::Type::kUint) continue;
    const std::string_view key = storage_->Str(a.key);
    for (const Rule& r : rules) {
      if (key != r.hash_key) continue;
      auto it = r.table->find(static_cast<uint64_t>(a.value.int_value));
      if (it != r.table->end()) {
        out.AddOrUpdate(args_->MakeArg(r.name_key, ArgValue::String(it->second)));
        changed = true;
      }
    }
  }
  if (changed) *args = std::move(out).Take();
}

std::optional<uint32_t> SliceTracker::AddArgSet(std::vector<Arg> args) {
  TranslateArgs(&args);
  return args_->AddArgSet(args);
}

void SliceTracker::MaybeCloseStack(int64_t ts, int64_t new_dur, std::vector<Open>* stack) {
  // Walks from the innermost slice out, as trace_processor does. Complete slices (known end)
  // leave the stack once time reaches their end, except that instants at one timestamp stack
  // on each other. A complete slice whose end has passed while open slices sit above it (an
  // End matched a slice below the top) truncates those to its own end: they cannot outlive
  // their parent.
  SliceTable& slices = storage_->slice;
  bool open_above = false;
  for (size_t i = stack->size(); i-- > 0;) {
    if (i >= stack->size()) continue;  // popped by an earlier step
    const Open& o = (*stack)[i];
    if (o.end_ts < 0) {
      open_above = true;
      continue;
    }
    if (open_above) {
      if (ts <= o.end_ts) continue;
      const int64_t end = o.end_ts;
      for (size_t j = stack->size(); j-- > i + 1;) {
        const uint32_t child = (*stack)[j].row;
        slices.dur.Set(child, end - slices.ts[child]);
      }
      stack->resize(i);
      storage_->IncrementStat("misplaced_end_event");
      open_above = false;
      continue;
    }
    const int64_t dur = slices.dur[o.row];
    const bool ends_before = o.end_ts < ts;
    const bool ends_here = o.end_ts == ts && !(dur == 0 && new_dur == 0);
    if (ends_before || ends_here) stack->pop_back();
  }
}

uint32_t SliceTracker::Insert(int64_t ts, int64_t dur, uint32_t track, StringId category,
                              StringId name, std::vector<Open>* stack,
                              const std::vector<Arg>& args, ThreadTime tt,
                              bool defer_args) {
  std::optional<uint32_t> parent;
  if (!stack->empty()) parent = stack->back().row;
  SliceTable& slices = storage_->slice;
  name = translations_.SliceName(name);
  const uint32_t row = slices.Insert({.ts = ts,
                                      .dur = dur,
                                      .track_id = track,
                                      .category = category,
                                      .name = name,
                                      .depth = static_cast<uint32_t>(stack->size()),
                                      .parent_id = parent});
  if (defer_args) {
    if (!args.empty()) pending_args_[row] = args;
  } else if (!args.empty()) {
    if (auto set = AddArgSet(args)) slices.arg_set_id.Set(row, *set);
  }
  if (tt.ts) slices.thread_ts.Set(row, *tt.ts);
  if (tt.instruction_count) slices.thread_instruction_count.Set(row, *tt.instruction_count);
  storage_->ExtendBounds(ts);
  if (dur > 0) storage_->ExtendBounds(ts + dur);
  return row;
}

std::optional<size_t> SliceTracker::MatchingOpenSlice(const std::vector<Open>& stack,
                                                      StringId category, StringId name) const {
  const SliceTable& slices = storage_->slice;
  for (size_t i = stack.size(); i-- > 0;) {
    if (stack[i].end_ts >= 0) continue;  // complete: ended, or scoped
    const uint32_t row = stack[i].row;
    // A name only rules out a slice that has a different one.
    if (name != kNullStringId && slices.name[row] != kNullStringId && slices.name[row] != name) {
      continue;
    }
    if (category != kNullStringId && slices.category[row] != category) continue;
    return i;
  }
  return std::nullopt;
}

std::optional<uint32_t> SliceTracker::FindOpenSlice(uint32_t track, StringId category,
                                                    StringId name) const {
  auto it = stacks_.find(track);
  if (it == stacks_.end()) return std::nullopt;
  const std::optional<size_t> match = MatchingOpenSlice(it->second, category, name);
  if (!match) return std::nullopt;
  return it->second[*match].row;
}

std::optional<uint32_t> SliceTracker::Begin(int64_t ts, uint32_t track, StringId category,
                                            StringId name, const std::vector<Arg>& args,
                                            ThreadTime thread_time) {
  std::vector<Open>& stack = stacks_[track];
  MaybeCloseStack(ts, -1, &stack);
  const uint32_t row =
      Insert(ts, -1, track, category, name, &stack, args, thread_time, /*defer_args=*/true);
  stack.push_back({row, -1});
  return row;
}

std::optional<uint32_t> SliceTracker::BeginLegacyUnnestable(int64_t ts, uint32_t track,
                                                            StringId name,
                                                            const std::vector<Arg>& args) {
  Unnestable& u = unnestable_[track];
  ++u.begin_count;
  u.last_begin_ts = ts;
  if (!stacks_[track].empty()) return std::nullopt;
  return Begin(ts, track, kNullStringId, name, args);
}

std::optional<uint32_t> SliceTracker::End(int64_t ts, uint32_t track, StringId category,
                                          StringId name, const std::vector<Arg>& args,
                                          ThreadTime thread_time) {
  // An end with nothing open to close (its begin predates the trace) is dropped quietly, as
  // trace_processor does.
  auto it = stacks_.find(track);
  if (it == stacks_.end()) return std::nullopt;
  std::vector<Open>& stack = it->second;
  MaybeCloseStack(ts, -1, &stack);
  if (stack.empty()) return std::nullopt;
  SliceTable& slices = storage_->slice;
  const std::optional<size_t> match =
      MatchingOpenSlice(stack, category, translations_.SliceName(name));
  if (!match) return std::nullopt;
  const uint32_t row = stack[*match].row;
  const int64_t dur = ts - slices.ts[row];
  if (dur < 0) {
    storage_->IncrementStat("slice_negative_duration");
    return std::nullopt;
  }
  slices.dur.Set(row, dur);
  storage_->ExtendBounds(ts);
  if (thread_time.ts && !slices.thread_ts.IsNull(row)) {
    slices.thread_dur.Set(row, *thread_time.ts - slices.thread_ts[row]);
  }
  if (thread_time.instruction_count && !slices.thread_instruction_count.IsNull(row)) {
    slices.thread_instruction_delta.Set(
        row, *thread_time.instruction_count - slices.thread_instruction_count[row]);
  }
  AddArgs(row, args);
  if (auto u = unnestable_.find(track); u != unnestable_.end()) {
    AddArgs(row, {args_->MakeArg("legacy_unnestable_begin_count", ArgValue::Int(u->second.begin_count)),
                  args_->MakeArg("legacy_unnestable_last_begin_ts",
                                 ArgValue::Int(u->second.last_begin_ts))});
  }
  CommitArgs(row);
  // Only the innermost slice leaves the stack; one further down stays, now complete, until
  // time passes its end (slices opened above it are then truncated to it).
  if (*match + 1 == stack.size()) {
    stack.pop_back();
  } else {
    stack[*match].end_ts = ts;
  }
  return row;
}

std::optional<uint32_t> SliceTracker::Scoped(int64_t ts, uint32_t track, StringId category,
                                             StringId name, int64_t dur,
                                             const std::vector<Arg>& args,
                                             ThreadTime thread_time,
                                             std::optional<int64_t> thread_dur) {
  if (dur < 0) {
    storage_->IncrementStat("slice_negative_duration");
    return std::nullopt;
  }
  std::vector<Open>& stack = stacks_[track];
  MaybeCloseStack(ts, dur, &stack);
  // A complete slice that starts inside an open complete slice but ends after it can neither
  // nest nor follow: it is dropped (callers that can spill it elsewhere check FindOverlap).
  for (size_t i = stack.size(); i-- > 0;) {
    const Open& o = stack[i];
    if (o.end_ts >= 0 && ts < o.end_ts && ts + dur > o.end_ts) {
      const SliceTable& slices = storage_->slice;
      const Overlap overlap{ts, o.end_ts, slices.name[o.row], slices.ts[o.row],
                            slices.dur[o.row]};
      storage_->RecordImportLog("slice_drop_overlapping_complete_event", ts,
                                args_->AddArgSet(OverlapArgs(overlap)));
      return std::nullopt;
    }
  }
  const uint32_t row =
      Insert(ts, dur, track, category, name, &stack, args, thread_time, /*defer_args=*/false);
  if (thread_dur) storage_->slice.thread_dur.Set(row, *thread_dur);
  stack.push_back({row, ts + dur});
  return row;
}

void SliceTracker::AddArgs(uint32_t slice_id, const std::vector<Arg>& args) {
  if (args.empty()) return;
  // A key the slice already has takes the new value in place (an end event repeating its
  // begin's args leaves the set as it was, so it is still shared with identical slices).
  if (auto it = pending_args_.find(slice_id); it != pending_args_.end()) {
    ArgSetBuilder merged(std::move(it->second));
    merged.Merge(args);
    it->second = std::move(merged).Take();
    return;
  }
  // A slice still open gathers its args until it ends, as trace_processor writes a slice's
  // arg set once: storing a set now would leave it orphaned in `args` when the end adds more.
  if (storage_->slice.dur[slice_id] == -1) {
    pending_args_[slice_id] = args;
    return;
  }
  StoreArgs(slice_id, args);
}

void SliceTracker::StoreArgs(uint32_t slice_id, const std::vector<Arg>& args) {
  SliceTable& slices = storage_->slice;
  ArgSetBuilder merged;
  if (!slices.arg_set_id.IsNull(slice_id)) {
    merged = ArgSetBuilder(args_->GetArgSet(slices.arg_set_id[slice_id]));
  }
  merged.Merge(args);
  if (auto set = AddArgSet(std::move(merged).Take())) slices.arg_set_id.Set(slice_id, *set);
}

void SliceTracker::CommitArgs(uint32_t slice_id) {
  auto it = pending_args_.find(slice_id);
  if (it == pending_args_.end()) return;
  std::vector<Arg> args = std::move(it->second);
  pending_args_.erase(it);
  StoreArgs(slice_id, args);
}

void SliceTracker::Finish() {
  std::vector<uint32_t> rows;
  rows.reserve(pending_args_.size());
  for (const auto& [row, unused] : pending_args_) rows.push_back(row);
  std::sort(rows.begin(), rows.end());
  for (uint32_t row : rows) CommitArgs(row);
}

std::optional<SliceTracker::Overlap> SliceTracker::FindOverlap(int64_t ts, uint32_t track,
                                                               int64_t dur) {
  auto it = stacks_.find(track);
  if (it == stacks_.end()) return std::nullopt;
  MaybeCloseStack(ts, dur, &it->second);
  // Innermost first, as trace_processor walks the stack.
  for (size_t i = it->second.size(); i-- > 0;) {
    const Open& o = it->second[i];
    if (o.end_ts >= 0 && ts < o.end_ts && ts + dur > o.end_ts) {
      const SliceTable& slices = storage_->slice;
      return Overlap{ts, o.end_ts, slices.name[o.row], slices.ts[o.row], slices.dur[o.row]};
    }
  }
  return std::nullopt;
}

std::vector<Arg> SliceTracker::OverlapArgs(const Overlap& overlap) {
  return {args_->MakeArg("overlap_start", ArgValue::Int(overlap.start)),
          args_->MakeArg("overlap_end", ArgValue::Int(overlap.end)),
          args_->MakeArg("conflicting_slice_name", ArgValue::String(overlap.conflicting_name)),
          args_->MakeArg("conflicting_slice_ts", ArgValue::Int(overlap.conflicting_ts)),
          args_->MakeArg("conflicting_slice_dur", ArgValue::Int(overlap.conflicting_dur))};
}

std::optional<uint32_t> SliceTracker::GetTopmostSliceOnTrack(uint32_t track) const {
  auto it = stacks_.find(track);
  if (it == stacks_.end() || it->second.empty()) return std::nullopt;
  return it->second.back().row;
}

size_t SliceTracker::OpenDepth(uint32_t track) const {
  auto it = stacks_.find(track);
  return it == stacks_.end() ? 0 : it->second.size();
}

}  // namespace tw
