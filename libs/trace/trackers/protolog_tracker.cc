#include "libs/trace/trackers/protolog_tracker.h"

#include <cinttypes>
#include <cstdio>

#include "libs/trace/trackers/trace_context.h"

namespace tw {
namespace {

constexpr const char* kUnknownGroupTag = "<UNKNOWN>";
constexpr const char* kCollisionGroupTag = "<COLLISION>";
constexpr int32_t kLevelWarn = 4;

const char* LevelName(int32_t level) {
  switch (level) {  // ProtoLogLevel
    case 1: return "DEBUG";
    case 2: return "VERBOSE";
    case 3: return "INFO";
    case 4: return "WARN";
    case 5: return "ERROR";
    case 6: return "WTF";
    default: return "UNKNOWN";
  }
}

template <typename... A>
std::string Printf(const char* fmt, A... args) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, args...);
  return buf;
}

}  // namespace

void ProtoLogTracker::OnEvent(int64_t ts, const ProtoLogData& e) {
  if (e.kind == ProtoLogData::Kind::kViewerConfig) return OnViewerConfig(e);
  OnMessage(ts, e);
}

void ProtoLogTracker::OnViewerConfig(const ProtoLogData& e) {
  for (const ProtoLogData::Group& g : e.groups) {
    auto [it, inserted] = groups_.try_emplace(g.id, g.tag);
    if (!inserted && it->second != g.tag) {
      // Two configs disagree on a group's tag: neither can be trusted.
      ctx_->storage->IncrementStat("winscope_protolog_group_tag_collision");
      it->second = kCollisionGroupTag;
    }
  }
  for (const ProtoLogData::MessageFormat& m : e.formats) {
    std::vector<TrackedFormat>& known = formats_[m.message_id];
    bool duplicate = false;
    for (const TrackedFormat& f : known) {
      duplicate |= f.level == m.level && f.group_id == m.group_id && f.message == m.message &&
                   f.location == m.location;
    }
    if (!duplicate) {
      known.push_back({m.level, m.group_id, m.message, m.location, Signature(m.message)});
    }
  }
}

std::string ProtoLogTracker::Signature(const std::string& format) {
  std::string sig;
  for (size_t i = 0; i + 1 < format.size(); ++i) {
    if (format[i] != '%') continue;
    switch (format[i + 1]) {
      case 'd': case 'o': case 'x': sig.push_back('i'); break;
      case 'f': case 'e': case 'g': sig.push_back('d'); break;
      case 'b': sig.push_back('b'); break;
      case 's': sig.push_back('s'); break;
      default: break;
    }
    ++i;
  }
  return sig;
}

bool ProtoLogTracker::Matches(const std::string& signature, const ProtoLogData& e) {
  size_t ints = 0, doubles = 0, bools = 0, strings = 0;
  for (char c : signature) {
    if (c == 'i') ++ints;
    if (c == 'd') ++doubles;
    if (c == 'b') ++bools;
    if (c == 's') ++strings;
  }
  return ints == e.sint64_params.size() && doubles == e.double_params.size() &&
         bools == e.boolean_params.size() && strings == e.string_params.size();
}

std::string ProtoLogTracker::GroupTag(uint32_t group_id) {
  auto it = groups_.find(group_id);
  if (it != groups_.end()) return it->second;
  ctx_->storage->IncrementStat("winscope_protolog_group_tag_missing");
  return kUnknownGroupTag;
}

std::string ProtoLogTracker::Format(const std::string& format, const ProtoLogData& e) {
  std::string out;
  out.reserve(format.size());
  size_t ints = 0, doubles = 0, bools = 0, strings = 0;
  auto missing = [&] {
    ctx_->storage->IncrementStat("winscope_protolog_param_mismatch");
    out += "[MISSING_PARAM]";
  };
  for (size_t i = 0; i < format.size();) {
    if (format[i] != '%' || i + 1 >= format.size()) {
      out.push_back(format[i++]);
      continue;
    }
    const char spec = format[i + 1];
    i += 2;
    switch (spec) {
      case '%': out.push_back('%'); break;
      case 'd': case 'o': case 'x': {
        if (ints >= e.sint64_params.size()) {
          missing();
          break;
        }
        const int64_t v = e.sint64_params[ints++];
        if (spec == 'd') out += Printf("%" PRId64, v);
        if (spec == 'o') out += Printf("%" PRIo64, static_cast<uint64_t>(v));
        if (spec == 'x') out += Printf("%" PRIx64, static_cast<uint64_t>(v));
        break;
      }
      case 'f': case 'e': case 'g': {
        if (doubles >= e.double_params.size()) {
          missing();
          break;
        }
        const double v = e.double_params[doubles++];
        out += Printf(spec == 'f' ? "%f" : spec == 'e' ? "%e" : "%g", v);
        break;
      }
      case 's':
        if (strings >= e.string_params.size()) {
          missing();
          break;
        }
        out += e.string_params[strings++];
        break;
      case 'b':
        if (bools >= e.boolean_params.size()) {
          missing();
          break;
        }
        out += e.boolean_params[bools++] ? "true" : "false";
        break;
      default:
        out.push_back('%');
        out.push_back(spec);
        break;
    }
  }
  if (ints != e.sint64_params.size() || doubles != e.double_params.size() ||
      bools != e.boolean_params.size() || strings != e.string_params.size()) {
    ctx_->storage->IncrementStat("winscope_protolog_param_mismatch");
  }
  return out;
}

std::optional<ProtoLogTracker::Decoded> ProtoLogTracker::Decode(const ProtoLogData& e) {
  auto it = formats_.find(e.message_id);
  if (it == formats_.end()) return std::nullopt;
  const std::vector<TrackedFormat>& candidates = it->second;
  if (candidates.size() == 1) {
    const TrackedFormat& f = candidates[0];
    return Decoded{f.level, GroupTag(f.group_id), Format(f.message, e), f.location};
  }
  // Several formats share the id: the parameter types decide.
  std::vector<const TrackedFormat*> matches;
  for (const TrackedFormat& f : candidates) {
    if (Matches(f.signature, e)) matches.push_back(&f);
  }
  if (matches.size() == 1) {
    ctx_->storage->IncrementStat("winscope_protolog_message_collision_resolved");
    const TrackedFormat& f = *matches[0];
    return Decoded{f.level, GroupTag(f.group_id), Format(f.message, e), f.location};
  }
  ctx_->storage->IncrementStat("winscope_protolog_message_collision");
  std::string text = "<PROTOLOG COLLISION (id=0x" + Printf("%" PRIx64, e.message_id) + ") ";
  if (matches.empty()) {
    text += "NO TYPE MATCH>";
  } else {
    text += "MULTIPLE TYPE MATCHES : ";
    for (size_t i = 0; i < matches.size(); ++i) {
      text += "'" + Format(matches[i]->message, e) + "'";
      if (i + 1 < matches.size()) text += ",\n ";
    }
    text += ">";
  }
  return Decoded{kLevelWarn, kCollisionGroupTag, text, std::nullopt};
}

void ProtoLogTracker::OnMessage(int64_t ts, const ProtoLogData& e) {
  TraceStorage* storage = ctx_->storage;
  ProtoLogTable& table = storage->protolog;
  const uint32_t row = table.Insert({.ts = ts});
  const std::optional<Decoded> decoded = Decode(e);
  if (!decoded) {
    // No format for this id in any viewer config: the row keeps only its time.
    storage->IncrementStat("winscope_protolog_message_decoding_failed");
    return;
  }
  table.level.Set(row, storage->Intern(LevelName(decoded->level)));
  table.tag.Set(row, storage->Intern(decoded->tag));
  table.message.Set(row, storage->Intern(decoded->message));
  if (e.has_stacktrace) table.stacktrace.Set(row, e.stacktrace);
  if (decoded->location) table.location.Set(row, storage->Intern(*decoded->location));
}

}  // namespace tw
