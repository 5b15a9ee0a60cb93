#include "libs/trace/trackers/async_track_sets.h"

namespace tw {

uint32_t AsyncTrackSets::SetFor(const std::string& key) {
  auto [it, inserted] = index_.try_emplace(key, static_cast<uint32_t>(sets_.size()));
  if (inserted) {
    Set s;
    s.group_id = static_cast<int64_t>(sets_.size());
    sets_.push_back(std::move(s));
  }
  return it->second;
}

size_t AsyncTrackSets::SlotFor(Set& set, int64_t cookie) {
  for (size_t i = 0; i < set.slots.size(); ++i) {
    if (!set.slots[i].scoped && set.slots[i].cookie == cookie) return i;
  }
  // Adopt a free track: later slices with this cookie will find it.
  for (size_t i = 0; i < set.slots.size(); ++i) {
    if (!set.slots[i].scoped && set.slots[i].nest_count == 0) {
      set.slots[i].cookie = cookie;
      return i;
    }
  }
  Slot slot;
  slot.cookie = cookie;
  set.slots.push_back(slot);
  return set.slots.size() - 1;
}

uint32_t AsyncTrackSets::TrackOf(Set& set, size_t slot, const Factory& factory) {
  if (!set.slots[slot].track) {
    set.slots[slot].track = factory(static_cast<uint32_t>(slot), set.group_id);
  }
  return *set.slots[slot].track;
}

uint32_t AsyncTrackSets::Begin(uint32_t set_index, int64_t cookie, const Factory& factory,
                               bool saturating) {
  Set& set = sets_[set_index];
  const size_t slot = SlotFor(set, cookie);
  if (saturating) {
    set.slots[slot].nest_count = 1;
  } else {
    ++set.slots[slot].nest_count;
  }
  return TrackOf(set, slot, factory);
}

uint32_t AsyncTrackSets::End(uint32_t set_index, int64_t cookie, const Factory& factory) {
  Set& set = sets_[set_index];
  const size_t slot = SlotFor(set, cookie);
  // An end without a begin (it happened before the trace started) leaves the count at 0.
  if (set.slots[slot].nest_count > 0) --set.slots[slot].nest_count;
  return TrackOf(set, slot, factory);
}

uint32_t AsyncTrackSets::Scoped(uint32_t set_index, int64_t ts, int64_t dur,
                                const Factory& factory) {
  Set& set = sets_[set_index];
  for (size_t i = 0; i < set.slots.size(); ++i) {
    Slot& slot = set.slots[i];
    if (slot.scoped && slot.end_ts <= ts) {
      slot.end_ts = ts + dur;
      return TrackOf(set, i, factory);
    }
  }
  Slot slot;
  slot.scoped = true;
  slot.end_ts = ts + dur;
  set.slots.push_back(slot);
  return TrackOf(set, set.slots.size() - 1, factory);
}

uint32_t AsyncTrackSets::First(uint32_t set_index, const Factory& factory) {
  Set& set = sets_[set_index];
  if (set.slots.empty()) set.slots.push_back(Slot{});
  return TrackOf(set, 0, factory);
}

}  // namespace tw
