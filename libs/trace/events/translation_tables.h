#pragma once
// What a trace's TranslationTable packets say obfuscated or hashed values stand for: Chrome
// histogram, user-action and study (trigger) name hashes, performance-mark site and mark
// hashes, and raw slice and process-track names with their deobfuscated forms. The proto
// importer fills them as it reads the packets; the trackers apply them as they write slices
// and tracks. Like trace_processor, which applies them at the end of the import, every
// translation a trace carries applies to the whole trace: the trackers run after the importer
// has read the whole file (the sorter keeps everything until the end unless a window is set).

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/storage/string_pool.h"

namespace tw {

struct TranslationTables {
  absl::flat_hash_map<uint64_t, StringId> chrome_histogram;         // name hash → name
  absl::flat_hash_map<uint64_t, StringId> chrome_user_event;        // action hash → action
  absl::flat_hash_map<uint64_t, StringId> chrome_study;             // study hash → name
  absl::flat_hash_map<uint64_t, StringId> performance_mark_site;    // site hash → site
  absl::flat_hash_map<uint64_t, StringId> performance_mark_mark;    // mark hash → mark
  absl::flat_hash_map<StringId, StringId> slice_name;               // raw → deobfuscated
  absl::flat_hash_map<StringId, StringId> process_track_name;       // raw → deobfuscated

  bool has_arg_translations() const {
    return !chrome_histogram.empty() || !chrome_user_event.empty() || !chrome_study.empty() ||
           !performance_mark_site.empty() || !performance_mark_mark.empty();
  }
  StringId SliceName(StringId raw) const { return Lookup(slice_name, raw); }
  StringId ProcessTrackName(StringId raw) const { return Lookup(process_track_name, raw); }

 private:
  static StringId Lookup(const absl::flat_hash_map<StringId, StringId>& map, StringId raw) {
    if (map.empty() || raw == kNullStringId) return raw;
    auto it = map.find(raw);
    return it == map.end() ? raw : it->second;
  }
};

}  // namespace tw
