#include "libs/trace/query/thread_slice_time_tables.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "libs/trace/query/per_thread_intervals.h"
#include "libs/trace/query/sql_text_order.h"

namespace tw {
namespace {

// Calls fn(slice_id, utid) for every thread slice (see the header), in slice id order.
template <typename Fn>
void ForEachThreadSlice(const TraceStorage& storage, Fn fn) {
  const TrackTable& tracks = storage.track;
  const StringId slice_events = storage.strings().Find("slice");
  if (slice_events == kNullStringId) return;
  // The thread of each thread slice track, looked up once per track.
  std::vector<std::optional<uint32_t>> thread_of_track(tracks.row_count());
  for (uint32_t t = 0; t < tracks.row_count(); ++t) {
    const std::optional<uint32_t> utid = tracks.utid.Get(t);
    if (tracks.event_type[t] != slice_events || !utid || *utid == 0) continue;
    if (*utid >= storage.thread.row_count()) continue;  // thread_slice joins the thread
    thread_of_track[t] = utid;
  }
  const SliceTable& slices = storage.slice;
  for (uint32_t s = 0; s < slices.row_count(); ++s) {
    const uint32_t track = slices.track_id[s];
    if (slices.dur[s] <= 0 || track >= thread_of_track.size() || !thread_of_track[track]) continue;
    fn(s, *thread_of_track[track]);
  }
}

}  // namespace

void FillThreadSliceStateTime(const TraceStorage& storage, ThreadSliceStateTimeTable* out) {
  const ThreadStateTable& states = storage.thread_state;
  const StringPool& strings = storage.strings();
  PerThreadIntervals by_thread;
  for (uint32_t row = 0; row < states.row_count(); ++row) {
    if (states.dur[row] > 0) {
      by_thread.Add(states.utid[row], states.ts[row], states.ts[row] + states.dur[row], row);
    }
  }
  by_thread.Finish();

  // The states and blocked functions in SQL text order, so pieces sort by integers.
  std::vector<StringId> texts;
  {
    absl::flat_hash_set<StringId> seen;
    for (uint32_t row = 0; row < states.row_count(); ++row) {
      if (seen.insert(states.state[row]).second) texts.push_back(states.state[row]);
      if (seen.insert(states.blocked_function[row]).second) {
        texts.push_back(states.blocked_function[row]);
      }
    }
  }
  const SqlTextRanks rank(strings, std::move(texts));

  constexpr int kNullIoWait = std::numeric_limits<int>::min();
  struct Piece {
    uint32_t state_rank;
    int io_wait;  // kNullIoWait for NULL, which sorts first
    uint32_t blocked_function_rank;
    uint32_t row;  // a thread_state row with these values
    int64_t dur;
  };
  auto key = [](const Piece& p) {
    return std::make_tuple(p.state_rank, p.io_wait, p.blocked_function_rank);
  };
  std::vector<Piece> pieces;
  ForEachThreadSlice(storage, [&](uint32_t slice, uint32_t utid) {
    const int64_t ts = storage.slice.ts[slice];
    pieces.clear();
    by_thread.ForEachOverlap(
        utid, ts, ts + storage.slice.dur[slice], [&](uint32_t row, int64_t overlap) {
          const std::optional<int8_t> io_wait = states.io_wait.Get(row);
          pieces.push_back({rank.Of(states.state[row]), io_wait ? *io_wait : kNullIoWait,
                            rank.Of(states.blocked_function[row]), row, overlap});
        });
    std::sort(pieces.begin(), pieces.end(),
              [&](const Piece& a, const Piece& b) { return key(a) < key(b); });
    for (size_t i = 0; i < pieces.size();) {
      const Piece& first = pieces[i];
      int64_t dur = 0;
      for (; i < pieces.size() && key(pieces[i]) == key(first); ++i) dur += pieces[i].dur;
      out->Insert({.slice_id = slice,
                   .state = states.state[first.row],
                   .io_wait = states.io_wait.Get(first.row),
                   .blocked_function = states.blocked_function[first.row],
                   .dur = dur});
    }
  });
}

void FillThreadSliceSchedTime(const TraceStorage& storage, ThreadSliceSchedTimeTable* out) {
  const SchedSliceTable& sched = storage.sched_slice;
  PerThreadIntervals by_thread;
  for (uint32_t row = 0; row < sched.row_count(); ++row) {
    if (sched.dur[row] > 0) {
      by_thread.Add(sched.utid[row], sched.ts[row], sched.ts[row] + sched.dur[row], row);
    }
  }
  by_thread.Finish();
  ForEachThreadSlice(storage, [&](uint32_t slice, uint32_t utid) {
    const int64_t ts = storage.slice.ts[slice];
    std::optional<int64_t> cpu_time;
    by_thread.ForEachOverlap(utid, ts, ts + storage.slice.dur[slice],
                             [&](uint32_t, int64_t overlap) {
                               cpu_time = cpu_time.value_or(0) + overlap;
                             });
    if (cpu_time) out->Insert({.slice_id = slice, .cpu_time = *cpu_time});
  });
}

}  // namespace tw
