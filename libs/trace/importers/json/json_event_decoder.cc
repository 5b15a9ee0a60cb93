#include "libs/trace/importers/json/json_event_decoder.h"

#include <cmath>
#include <limits>
#include <optional>

#include "libs/trace/importers/common/json_args.h"
#include "libs/trace/importers/json/json_timestamp.h"
#include "libs/trace/importers/common/json_value.h"

namespace tw {
namespace {

// An "id" / "bind_id" / "id2.local|global" value: trace_processor takes strings and integers.
struct JsonId {
  enum class Kind : uint8_t { kNone, kString, kInt };
  Kind kind = Kind::kNone;
  StringId str = kNullStringId;
  uint64_t value = 0;
};

JsonId ReadId(const JsonValue& v, TraceStorage* storage) {
  JsonId id;
  if (v.is_string()) {
    id.kind = JsonId::Kind::kString;
    id.str = storage->Intern(v.text);
  } else if (v.is_number()) {
    if (std::optional<int64_t> i = JsonNumberToInt64(v.text)) {
      id.kind = JsonId::Kind::kInt;
      id.value = static_cast<uint64_t>(*i);
    } else if (std::optional<uint64_t> u = JsonNumberToUint64(v.text)) {
      id.kind = JsonId::Kind::kInt;
      id.value = *u;
    }
  }
  return id;
}

// Flow ids written as strings are hexadecimal ("0x402" or "402"), as catapult reads them.
std::optional<uint64_t> HexId(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty() || s.size() > 16) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      return std::nullopt;
    }
    v = v * 16 + static_cast<uint64_t>(d);
  }
  return v;
}

std::optional<uint64_t> FlowId(const JsonId& id, const TraceStorage* storage) {
  switch (id.kind) {
    case JsonId::Kind::kNone: return std::nullopt;
    case JsonId::Kind::kString: return HexId(storage->Str(id.str));
    case JsonId::Kind::kInt: return id.value;
  }
  return std::nullopt;
}

// The async id joins the category: catapult keeps equal ids of different categories apart.
// A fixed mix (not absl's per-process seeded hash) keeps track assignment reproducible.
int64_t AsyncCookie(StringId category, const JsonId& id) {
  auto mix = [](uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
  };
  const uint64_t value = id.kind == JsonId::Kind::kString ? id.str : id.value;
  const uint64_t h = mix(mix(category + 0x9e3779b97f4a7c15ull) ^
                         (static_cast<uint64_t>(id.kind) << 56) ^ mix(value));
  return static_cast<int64_t>(h);
}

// pids and tids are read as trace_processor reads them: integers outside uint32 become 0.
uint32_t CoerceToUint32(int64_t n) {
  if (n < 0 || n > std::numeric_limits<uint32_t>::max()) return 0;
  return static_cast<uint32_t>(n);
}

std::optional<uint32_t> NumberToUint32(std::string_view literal) {
  if (std::optional<int64_t> i = JsonNumberToInt64(literal)) return CoerceToUint32(*i);
  std::optional<double> d = JsonNumberToDouble(literal);
  if (!d) return std::nullopt;
  if (!std::isfinite(*d) || std::fabs(*d) >= 9.2e18) return 0;
  return CoerceToUint32(static_cast<int64_t>(*d));
}

// A time in microseconds, as a number or as a string holding one.
std::optional<int64_t> Nanos(const JsonValue& v) {
  if (v.is_number()) return MicrosLiteralToNanos(v.text);
  if (v.is_string()) {
    JsonValue inner;
    std::string scratch;
    if (ParseJsonValue(v.text, &inner, &scratch) && inner.is_number()) {
      return MicrosLiteralToNanos(inner.text);
    }
  }
  return std::nullopt;
}

bool IsSlicePhase(char phase) {
  switch (phase) {
    case 'B': case 'E': case 'X': case 'b': case 'e': case 'n': case 'i': case 'I': case 'R':
      return true;
    default:
      return false;
  }
}

// 'C': every field of "args" is one counter sample.
void ReadCounters(std::string_view args, std::string_view id, DecodedJsonEvent* out,
                  TraceStorage* storage) {
  JsonEventData& d = out->data;
  if (args.empty()) {
    d.counter_args_missing = true;
    return;
  }
  std::string name(storage->Str(d.name));
  if (!id.empty()) name.append(" id: ").append(id);
  name.push_back(' ');
  const size_t prefix = name.size();
  const bool ok = ForEachJsonMember(args, [&](std::string_view key, const JsonValue& v) {
    std::optional<double> value;
    if (v.is_number()) {
      value = JsonNumberToDouble(v.text);
    } else if (v.is_string()) {
      // Numbers in strings are read as strtod reads them, which also takes a leading '+'.
      std::string_view text = v.text;
      if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') {
        text.remove_prefix(1);
      }
      value = JsonNumberToDouble(text);
    }
    if (!value) {
      ++out->parser_failures;
      return true;
    }
    name.resize(prefix);
    name.append(key);
    d.counters.emplace_back(storage->Intern(name), *value);
    return true;
  });
  if (!ok) ++out->parser_failures;
}

// 'M': the name or sort index of a thread or process.
void ReadMetadata(std::string_view args, DecodedJsonEvent* out, TraceStorage* storage) {
  JsonEventData& d = out->data;
  const std::string_view kind = storage->Str(d.name);
  const bool sort = kind == "process_sort_index" || kind == "thread_sort_index";
  const bool named = kind == "process_name" || kind == "thread_name";
  if (args.empty() || (!sort && !named)) return;
  const bool ok = ForEachJsonMember(args, [&](std::string_view key, const JsonValue& v) {
    if (sort) {
      if (key != "sort_index") return true;
      std::optional<int64_t> index;
      if (v.is_number()) {
        index = JsonNumberToInt64(v.text);
        if (!index) {
          std::optional<double> real = JsonNumberToDouble(v.text);
          if (real && std::isfinite(*real) && std::fabs(*real) < 9.2e18) {
            index = static_cast<int64_t>(*real);
          }
        }
      }
      if (index) {
        // trace_processor keeps sort indexes as int32 (wrapping larger values).
        d.sort_index = static_cast<int32_t>(*index);
      } else {
        ++out->parser_failures;
      }
      return true;
    }
    if (key != "name") return true;
    if (v.is_string() && !v.text.empty()) {
      d.metadata_value = storage->Intern(v.text);
    } else {
      ++out->parser_failures;
    }
    return true;
  });
  if (!ok) ++out->parser_failures;
}

// 'T' with a duration: a thread state, which may name its cpu and blocking reason.
void ReadThreadState(std::string_view args, DecodedJsonEvent* out, TraceStorage* storage) {
  if (args.empty()) return;
  JsonEventData& d = out->data;
  const bool ok = ForEachJsonMember(args, [&](std::string_view key, const JsonValue& v) {
    if (key == "cpu" && v.is_number()) {
      if (std::optional<int64_t> cpu = JsonNumberToInt64(v.text)) {
        d.cpu = static_cast<uint32_t>(*cpu);
      }
    } else if (key == "io_wait" && v.is_number()) {
      d.io_wait = JsonNumberToInt64(v.text);
    } else if (key == "blocked_function" && v.is_string()) {
      d.blocked_function = storage->Intern(v.text);
    }
    return true;
  });
  if (!ok) ++out->parser_failures;
}

}  // namespace

JsonEventStatus DecodeJsonEvent(std::string_view text, TraceStorage* storage,
                                DecodedJsonEvent* out) {
  JsonEventData& d = out->data;
  std::optional<int64_t> ts;
  bool any_field = false;
  bool bad_time = false;
  std::string_view args;
  JsonId id;
  JsonId bind_id;
  JsonId id2_local;
  JsonId id2_global;

  auto pid_or_tid = [&](const JsonValue& v, uint32_t* value, StringId* name, bool* exists) {
    if (v.is_string()) {
      // A name instead of a number ("quick and dirty" traces): the interned string's id stands
      // in for the number, and the string names the process / thread.
      *name = storage->Intern(v.text);
      *value = *name;
      *exists = true;
    } else if (v.is_number()) {
      if (std::optional<uint32_t> n = NumberToUint32(v.text)) {
        *value = *n;
        *name = kNullStringId;
        *exists = true;
      }
    }
  };
  auto time_field = [&](const JsonValue& v, std::optional<int64_t>* field) {
    *field = Nanos(v);
    if (!*field) bad_time = true;
  };

  const bool well_formed = ForEachJsonMember(text, [&](std::string_view key, const JsonValue& v) {
    any_field = true;
    if (key.empty()) return true;
    switch (key[0]) {
      case 'a':
        if (key == "args") args = v.is_object() ? v.text : std::string_view();
        break;
      case 'b':
        if (key == "bind_id") {
          bind_id = ReadId(v, storage);
        } else if (key == "bp") {
          d.bind_enclosing_slice = v.is_string() && v.text == "e";
        }
        break;
      case 'c':
        if (key == "cat") d.category = v.is_string() && !v.text.empty() ? storage->Intern(v.text)
                                                                       : kNullStringId;
        break;
      case 'd':
        if (key == "dur") time_field(v, &d.dur);
        break;
      case 'f':
        if (key == "flow_in" && v.type == JsonValue::Type::kBool) d.flow_in = v.boolean;
        if (key == "flow_out" && v.type == JsonValue::Type::kBool) d.flow_out = v.boolean;
        break;
      case 'i':
        if (key == "id") {
          id = ReadId(v, storage);
        } else if (key == "id2" && v.is_object()) {
          const bool ok = ForEachJsonMember(v.text, [&](std::string_view k, const JsonValue& iv) {
            if (k == "local") id2_local = ReadId(iv, storage);
            if (k == "global") id2_global = ReadId(iv, storage);
            return true;
          });
          if (!ok) ++out->tokenizer_failures;
        }
        break;
      case 'n':
        if (key == "name") d.name = v.is_string() && !v.text.empty() ? storage->Intern(v.text)
                                                                    : kNullStringId;
        break;
      case 'p':
        if (key == "ph") {
          d.phase = v.is_string() && !v.text.empty() ? v.text[0] : 0;
        } else if (key == "pid") {
          pid_or_tid(v, &d.pid, &d.pid_name, &d.pid_exists);
        }
        break;
      case 's':
        if (key == "s" && v.is_string()) {
          if (v.text == "g") d.scope = JsonEventData::Scope::kGlobal;
          if (v.text == "p") d.scope = JsonEventData::Scope::kProcess;
          if (v.text == "t") d.scope = JsonEventData::Scope::kThread;
        } else if (key == "s") {
          d.scope = JsonEventData::Scope::kNone;
        }
        break;
      case 't':
        if (key == "ts") {
          ts = Nanos(v);  // a bad "ts" is reported below, once the phase is known
        } else if (key == "tid") {
          pid_or_tid(v, &d.tid, &d.tid_name, &d.tid_exists);
        } else if (key == "tts") {
          time_field(v, &d.thread_ts);
        } else if (key == "tdur") {
          time_field(v, &d.thread_dur);
        }
        break;
      default:
        break;
    }
    return true;
  });

  if (!well_formed) {
    out->error = "not a well-formed JSON object";
    out->malformed = true;
    return JsonEventStatus::kFailed;
  }
  if (bad_time) {
    out->error = "\"dur\", \"tts\" or \"tdur\" is not a number";
    out->value_error = "Expected a number in a timestamp field";
    return JsonEventStatus::kFailed;
  }
  if (d.phase == 0) {
    if (!any_field) return JsonEventStatus::kEmpty;
    out->error = "no \"ph\"";
    return JsonEventStatus::kFailed;
  }
  if (!ts) {
    // Metadata events need no time; they apply from the start.
    if (d.phase != 'M') {
      out->error = "no usable \"ts\"";
      return JsonEventStatus::kFailed;
    }
    ts = 0;
  }
  out->ts = *ts;

  // An absent tid means the process's main thread.
  if (d.tid == 0 && d.pid != 0 && d.tid_name == kNullStringId) d.tid = d.pid;

  if (d.phase == 'P') {
    if (id.kind == JsonId::Kind::kString) {
      out->v8_profile_id = HexId(storage->Str(id.str));
      out->v8_profile_id_invalid = !out->v8_profile_id;
    } else if (id.kind == JsonId::Kind::kInt) {
      out->v8_profile_id = id.value;
    }
    out->v8_args = args;
    return JsonEventStatus::kV8Sample;
  }

  if (id.kind != JsonId::Kind::kNone) {
    d.async_cookie = AsyncCookie(d.category, id);
  } else if (id2_global.kind != JsonId::Kind::kNone) {
    d.async_cookie = AsyncCookie(d.category, id2_global);
  } else if (id2_local.kind != JsonId::Kind::kNone) {
    d.async_cookie = AsyncCookie(d.category, id2_local);
    d.async_process_scoped = true;
  }
  d.flow_v1_id = FlowId(id, storage);
  d.bind_id = FlowId(bind_id, storage);

  if (IsSlicePhase(d.phase)) {
    if (!args.empty()) FlattenJsonArgs(args, "args", storage, &d.args);
  } else if (d.phase == 'C') {
    const std::string_view id_text =
        id.kind == JsonId::Kind::kString ? storage->Str(id.str) : std::string_view();
    ReadCounters(args, id_text, out, storage);
  } else if (d.phase == 'M') {
    ReadMetadata(args, out, storage);
  } else if (d.phase == 'T') {
    ReadThreadState(args, out, storage);
  }
  return JsonEventStatus::kEvent;
}

}  // namespace tw
