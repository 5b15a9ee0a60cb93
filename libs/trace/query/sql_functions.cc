#include "libs/trace/query/sql_functions.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/trace/query/arg_set_json.h"
#include "libs/trace/query/demangle.h"
#include "libs/trace/query/fnv1a.h"
#include "libs/trace/query/ftrace_text.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// Lookup structures the functions build on first use. The storage never changes once loaded and
// every call runs under the database's mutex, so no further locking is needed.
struct SqlFunctionCaches {
  // EXTRACT_ARG: rows of `args` ordered by arg_set_id. Empty when the column is already sorted
  // (the importer's normal output), in which case row order is that order.
  bool args_ready = false;
  std::vector<uint32_t> args_order;
  StringId type_int = kNullStringId, type_uint = kNullStringId, type_bool = kNullStringId,
           type_pointer = kNullStringId, type_real = kNullStringId, type_string = kNullStringId,
           type_json = kNullStringId;

  // Clock conversions: trace time -> clock value at each snapshot, per clock.
  bool clocks_ready = false;
  std::map<int64_t, int64_t> realtime;
  std::map<int64_t, int64_t> monotonic;

  // TO_FTRACE: the kernel version (system_info's release), which decides how fields read.
  bool kernel_ready = false;
  std::optional<KernelVersion> kernel;
};

SqlFunctionContext::SqlFunctionContext(const TraceStorage* s)
    : storage(s), caches(std::make_unique<SqlFunctionCaches>()) {}
SqlFunctionContext::~SqlFunctionContext() = default;

namespace {

SqlFunctionContext* ContextOf(sqlite3_context* ctx) {
  return static_cast<SqlFunctionContext*>(sqlite3_user_data(ctx));
}

std::string_view TextArg(sqlite3_value* v) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return p ? std::string_view(p, static_cast<size_t>(sqlite3_value_bytes(v))) : std::string_view();
}

// Pool strings live as long as the storage, which outlives the connection.
void ResultPoolString(sqlite3_context* ctx, std::string_view s) {
  sqlite3_result_text(ctx, s.data() ? s.data() : "", static_cast<int>(s.size()), SQLITE_STATIC);
}

void ResultString(sqlite3_context* ctx, const std::string& s) {
  sqlite3_result_text(ctx, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
}

// ------------------------------------------------------------------------------- EXTRACT_ARG

void PrepareArgs(SqlFunctionContext* c) {
  SqlFunctionCaches& k = *c->caches;
  if (k.args_ready) return;
  k.args_ready = true;
  const ArgTable& args = c->storage->args;
  const uint32_t n = args.row_count();
  bool sorted = true;
  for (uint32_t r = 1; r < n && sorted; ++r) sorted = args.arg_set_id[r - 1] <= args.arg_set_id[r];
  if (!sorted) {
    k.args_order.resize(n);
    for (uint32_t r = 0; r < n; ++r) k.args_order[r] = r;
    std::stable_sort(k.args_order.begin(), k.args_order.end(), [&](uint32_t a, uint32_t b) {
      return args.arg_set_id[a] < args.arg_set_id[b];
    });
  }
  const StringPool& pool = c->storage->strings();
  k.type_int = pool.Find("int");
  k.type_uint = pool.Find("uint");
  k.type_bool = pool.Find("bool");
  k.type_pointer = pool.Find("pointer");
  k.type_real = pool.Find("real");
  k.type_string = pool.Find("string");
  k.type_json = pool.Find("json");
}

// Reports row `row` of `args` as trace_processor does: integers for int/uint/bool/pointer, the
// real for real, the string for string/json; NULL for null values.
void ResultArgValue(sqlite3_context* ctx, const SqlFunctionContext* c, uint32_t row) {
  const ArgTable& args = c->storage->args;
  const SqlFunctionCaches& k = *c->caches;
  const StringId type = args.value_type[row];
  auto result_int = [&] {
    if (!args.int_value.IsNull(row)) sqlite3_result_int64(ctx, args.int_value[row]);
  };
  auto result_real = [&] {
    if (!args.real_value.IsNull(row)) sqlite3_result_double(ctx, args.real_value[row]);
  };
  auto result_string = [&] {
    if (args.string_value[row] != kNullStringId) {
      ResultPoolString(ctx, c->storage->Str(args.string_value[row]));
    }
  };
  if (type == kNullStringId) return;
  if (type == k.type_int || type == k.type_uint || type == k.type_bool || type == k.type_pointer) {
    result_int();
  } else if (type == k.type_real) {
    result_real();
  } else if (type == k.type_string || type == k.type_json) {
    result_string();
  } else if (!args.int_value.IsNull(row)) {  // an unknown type name: report what is there
    result_int();
  } else if (args.string_value[row] != kNullStringId) {
    result_string();
  } else {
    result_real();
  }
}

// Arg rows in arg_set_id order: position -> row (the identity when the column is sorted).
uint32_t ArgRowAt(const SqlFunctionContext* c, uint32_t pos) {
  const std::vector<uint32_t>& order = c->caches->args_order;
  return order.empty() ? pos : order[pos];
}

// The first position (in arg_set_id order) of arg set `set`; its args follow contiguously.
uint32_t ArgSetStart(SqlFunctionContext* c, int64_t set) {
  PrepareArgs(c);
  const ArgTable& args = c->storage->args;
  uint32_t lo = 0, hi = args.row_count();
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (args.arg_set_id[ArgRowAt(c, mid)] < set) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

void ExtractArg(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER) {
    return sqlite3_result_error(ctx, "EXTRACT_ARG: 1st argument should be arg set id", -1);
  }
  if (sqlite3_value_type(argv[1]) != SQLITE_TEXT) {
    return sqlite3_result_error(ctx, "EXTRACT_ARG: 2nd argument should be key", -1);
  }
  SqlFunctionContext* c = ContextOf(ctx);
  PrepareArgs(c);
  const int64_t set = sqlite3_value_int64(argv[0]);
  const StringId key = c->storage->strings().Find(TextArg(argv[1]));
  if (key == kNullStringId || set < 0 || set > UINT32_MAX) return;

  const ArgTable& args = c->storage->args;
  for (uint32_t pos = ArgSetStart(c, set); pos < args.row_count(); ++pos) {
    const uint32_t row = ArgRowAt(c, pos);
    if (args.arg_set_id[row] != set) break;
    if (args.key[row] == key) return ResultArgValue(ctx, c, row);
  }
}

// The whole arg set as JSON (arg_set_json.h), in the order its args were recorded; NULL for a
// NULL or empty set.
void ArgSetToJsonFn(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER) {
    return sqlite3_result_error(ctx, "__intrinsic_arg_set_to_json: expects an arg set id", -1);
  }
  SqlFunctionContext* c = ContextOf(ctx);
  PrepareArgs(c);
  const int64_t set = sqlite3_value_int64(argv[0]);
  if (set < 0 || set > UINT32_MAX) return;
  const ArgTable& args = c->storage->args;
  const SqlFunctionCaches& k = *c->caches;
  std::vector<ArgJsonEntry> entries;
  for (uint32_t pos = ArgSetStart(c, set); pos < args.row_count(); ++pos) {
    const uint32_t row = ArgRowAt(c, pos);
    if (args.arg_set_id[row] != set) break;
    ArgJsonEntry e;
    e.key = std::string(c->storage->Str(args.key[row]));
    const StringId type = args.value_type[row];
    using Kind = ArgJsonEntry::Kind;
    if (!args.int_value.IsNull(row)) {
      e.int_value = args.int_value[row];
      e.kind = type == k.type_uint      ? Kind::kUint
               : type == k.type_bool    ? Kind::kBool
               : type == k.type_pointer ? Kind::kPointer
                                        : Kind::kInt;
    } else if (!args.real_value.IsNull(row)) {
      e.real_value = args.real_value[row];
      e.kind = Kind::kReal;
    } else if (args.string_value[row] != kNullStringId) {
      e.string_value = std::string(c->storage->Str(args.string_value[row]));
      e.kind = type == k.type_json ? Kind::kJson : Kind::kString;
    }
    entries.push_back(std::move(e));
  }
  if (entries.empty()) return;
  ResultString(ctx, ArgSetToJson(entries));
}

// ------------------------------------------------------------------------ PERCENTILE, MEDIAN

// Lives in SQLite's zeroed aggregate context, hence a plain struct owning its vector by pointer.
struct PercentileState {
  std::vector<double>* values;
  double p;
  bool has_p;
};

constexpr char kPercentileBadP[] =
    "2nd argument to percentile() is not a number between 0.0 and 100.0";

void PercentileAdd(sqlite3_context* ctx, sqlite3_value* x, double p) {
  auto* st = static_cast<PercentileState*>(sqlite3_aggregate_context(ctx, sizeof(PercentileState)));
  if (!st) return sqlite3_result_error_nomem(ctx);
  if (!st->has_p) {
    st->p = p;
    st->has_p = true;
  } else if (st->p != p) {
    return sqlite3_result_error(
        ctx, "2nd argument to percentile() is not the same for all input rows", -1);
  }
  const int type = sqlite3_value_type(x);
  if (type == SQLITE_NULL) return;
  if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) {
    return sqlite3_result_error(ctx, "1st argument to percentile() is not numeric", -1);
  }
  const double v = sqlite3_value_double(x);
  if (std::isinf(v)) return sqlite3_result_error(ctx, "Inf input to percentile()", -1);
  if (!st->values) st->values = new std::vector<double>();
  st->values->push_back(v);
}

void PercentileStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int type = sqlite3_value_type(argv[1]);
  const double p = sqlite3_value_double(argv[1]);
  if ((type != SQLITE_INTEGER && type != SQLITE_FLOAT) || p < 0 || p > 100) {
    return sqlite3_result_error(ctx, kPercentileBadP, -1);
  }
  PercentileAdd(ctx, argv[0], p);
}

void MedianStep(sqlite3_context* ctx, int, sqlite3_value** argv) {
  PercentileAdd(ctx, argv[0], 50);
}

// The value at rank (n-1)*p/100 of the sorted inputs, interpolating linearly between the two
// nearest ranks; NULL without inputs.
void PercentileFinal(sqlite3_context* ctx) {
  auto* st = static_cast<PercentileState*>(sqlite3_aggregate_context(ctx, 0));
  if (!st || !st->values) return;
  std::vector<double>& a = *st->values;
  std::sort(a.begin(), a.end());
  const double ix = static_cast<double>(a.size() - 1) * st->p / 100.0;
  const auto i1 = static_cast<size_t>(ix);
  const size_t i2 = (static_cast<double>(i1) == ix || i1 == a.size() - 1) ? i1 : i1 + 1;
  sqlite3_result_double(ctx, a[i1] + (a[i2] - a[i1]) * (ix - static_cast<double>(i1)));
  delete st->values;
  st->values = nullptr;
}

// ------------------------------------------------------------------------------ trace bounds

void TraceStart(sqlite3_context* ctx, int, sqlite3_value**) {
  sqlite3_result_int64(ctx, ContextOf(ctx)->storage->start_ts());
}
void TraceEnd(sqlite3_context* ctx, int, sqlite3_value**) {
  sqlite3_result_int64(ctx, ContextOf(ctx)->storage->end_ts());
}
void TraceDur(sqlite3_context* ctx, int, sqlite3_value**) {
  const TraceStorage* s = ContextOf(ctx)->storage;
  sqlite3_result_int64(ctx, s->end_ts() - s->start_ts());
}

// ---------------------------------------------------------------------------------- metadata

// The first metadata row called `name` whose machine_id / trace_id equal the given ones (an
// absent filter matches anything), reported as its string or else its integer.
void ResultMetadata(sqlite3_context* ctx, sqlite3_value* name, sqlite3_value* machine,
                    sqlite3_value* trace) {
  for (sqlite3_value* v : {name, machine, trace}) {
    if (v && sqlite3_value_type(v) == SQLITE_NULL) return;
  }
  const TraceStorage* s = ContextOf(ctx)->storage;
  const StringId id = s->strings().Find(TextArg(name));
  if (id == kNullStringId) return;
  const MetadataTable& m = s->metadata;
  auto matches = [](const IntColumn<uint32_t>& col, uint32_t row, sqlite3_value* want) {
    return !want || (!col.IsNull(row) && col[row] == sqlite3_value_int64(want));
  };
  // Without a machine, the host's value (or a value about no machine) wins over a remote
  // machine's, whichever was recorded first.
  for (const bool host_only : {!machine, false}) {
    for (uint32_t row = 0; row < m.row_count(); ++row) {
      if (m.name[row] != id || !matches(m.machine_id, row, machine) ||
          !matches(m.trace_id, row, trace)) {
        continue;
      }
      if (host_only && !m.machine_id.IsNull(row) && m.machine_id[row] != 0) continue;
      if (m.str_value[row] != kNullStringId) {
        return ResultPoolString(ctx, s->Str(m.str_value[row]));
      }
      if (!m.int_value.IsNull(row)) return sqlite3_result_int64(ctx, m.int_value[row]);
      return;
    }
  }
}

void ExtractMetadata(sqlite3_context* ctx, int, sqlite3_value** argv) {
  ResultMetadata(ctx, argv[0], nullptr, nullptr);
}
void ExtractMetadataForMachine(sqlite3_context* ctx, int, sqlite3_value** argv) {
  ResultMetadata(ctx, argv[1], argv[0], nullptr);
}
void ExtractMetadataForTrace(sqlite3_context* ctx, int, sqlite3_value** argv) {
  ResultMetadata(ctx, argv[1], nullptr, argv[0]);
}
void ExtractExactMetadata(sqlite3_context* ctx, int, sqlite3_value** argv) {
  ResultMetadata(ctx, argv[2], argv[0], argv[1]);
}

// -------------------------------------------------------------------------------------- clocks

constexpr int64_t kRealtimeClock = 1;   // BUILTIN_CLOCK_REALTIME
constexpr int64_t kMonotonicClock = 3;  // BUILTIN_CLOCK_MONOTONIC

void PrepareClocks(SqlFunctionContext* c) {
  SqlFunctionCaches& k = *c->caches;
  if (k.clocks_ready) return;
  k.clocks_ready = true;
  const ClockSnapshotTable& t = c->storage->clock_snapshot;
  for (uint32_t row = 0; row < t.row_count(); ++row) {
    // emplace keeps the first snapshot at a given trace time, as trace_processor does.
    if (t.clock_id[row] == kRealtimeClock) k.realtime.emplace(t.ts[row], t.clock_value[row]);
    if (t.clock_id[row] == kMonotonicClock) k.monotonic.emplace(t.ts[row], t.clock_value[row]);
  }
}

// Trace time -> `timeline`'s clock. Between two snapshots the later one caps the result, so the
// converted clock never runs backwards; before the first or after the last, the nearest one
// applies (before the first: its value as is, after the last: extrapolated).
std::optional<int64_t> FromTraceTime(const std::map<int64_t, int64_t>& timeline, int64_t ts) {
  if (timeline.empty()) return std::nullopt;
  auto next = timeline.lower_bound(ts);
  if (next == timeline.end()) {
    --next;
    return next->second + ts - next->first;
  }
  if (next == timeline.begin() || next->first == ts) return next->second;
  auto prev = std::prev(next);
  return std::min(prev->second + ts - prev->first, next->second);
}

// Shared checks of the one-timestamp functions: NULL in, NULL out; anything but an integer is an
// error naming the function.
bool TimestampArg(sqlite3_context* ctx, sqlite3_value* v, const char* fn, int64_t* out) {
  const int type = sqlite3_value_type(v);
  if (type == SQLITE_NULL) return false;
  if (type != SQLITE_INTEGER) {
    sqlite3_result_error(ctx, absl::StrCat(fn, ": first argument should be timestamp").c_str(), -1);
    return false;
  }
  *out = sqlite3_value_int64(v);
  return true;
}

void ToClock(sqlite3_context* ctx, sqlite3_value* v, const char* fn, bool realtime) {
  int64_t ts;
  if (!TimestampArg(ctx, v, fn, &ts)) return;
  SqlFunctionContext* c = ContextOf(ctx);
  PrepareClocks(c);
  // Missing clocks give NULL, not an error: one bad timestamp should not fail a whole query.
  const auto value = FromTraceTime(realtime ? c->caches->realtime : c->caches->monotonic, ts);
  if (value) sqlite3_result_int64(ctx, *value);
}

void ToRealtime(sqlite3_context* ctx, int, sqlite3_value** argv) {
  ToClock(ctx, argv[0], "TO_REALTIME", true);
}
void ToMonotonic(sqlite3_context* ctx, int, sqlite3_value** argv) {
  ToClock(ctx, argv[0], "TO_MONOTONIC", false);
}

void AbsTimeStr(sqlite3_context* ctx, int, sqlite3_value** argv) {
  int64_t ts;
  if (!TimestampArg(ctx, argv[0], "ABS_TIME_STR", &ts)) return;
  SqlFunctionContext* c = ContextOf(ctx);
  PrepareClocks(c);
  const auto real = FromTraceTime(c->caches->realtime, ts);
  if (!real) return;
  constexpr int64_t kSecond = 1000000000;
  const auto secs = static_cast<time_t>(*real / kSecond);
  std::tm tm{};
  if (!gmtime_r(&secs, &tm)) return;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%09" PRId64, tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, *real % kSecond);
  ResultString(ctx, buf);
}

// "HH:MM:SS mmm uuu nnn"
void ToTimecode(sqlite3_context* ctx, int, sqlite3_value** argv) {
  int64_t ns;
  if (!TimestampArg(ctx, argv[0], "TO_TIMECODE", &ns)) return;
  int64_t us = ns / 1000;
  ns %= 1000;
  int64_t ms = us / 1000;
  us %= 1000;
  int64_t ss = ms / 1000;
  ms %= 1000;
  int64_t mm = ss / 60;
  ss %= 60;
  const int64_t hh = mm / 60;
  mm %= 60;
  char buf[96];
  std::snprintf(buf, sizeof(buf),
                "%02" PRId64 ":%02" PRId64 ":%02" PRId64 " %03" PRId64 " %03" PRId64 " %03" PRId64,
                hh, mm, ss, ms, us, ns);
  ResultString(ctx, buf);
}

// ------------------------------------------------------------------------------------ strings

// 64-bit FNV-1a over each argument: integers as their 8 little-endian bytes, text as its bytes.
void Hash(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  Fnv1a64 h;
  for (int i = 0; i < argc; ++i) {
    switch (sqlite3_value_type(argv[i])) {
      case SQLITE_INTEGER: {
        const int64_t v = sqlite3_value_int64(argv[i]);
        unsigned char bytes[8];
        for (int b = 0; b < 8; ++b)
          bytes[b] = static_cast<unsigned char>(static_cast<uint64_t>(v) >> (8 * b));
        h.Update(bytes, sizeof(bytes));
        break;
      }
      case SQLITE_TEXT: {
        const std::string_view s = TextArg(argv[i]);
        h.Update(s);
        break;
      }
      default:
        return sqlite3_result_error(ctx, absl::StrCat("HASH: arg ", i, " has unknown type").c_str(),
                                    -1);
    }
  }
  sqlite3_result_int64(ctx, h.Digest());
}

void Reverse(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int type = sqlite3_value_type(argv[0]);
  if (type == SQLITE_NULL) return;
  if (type != SQLITE_TEXT) {
    return sqlite3_result_error(ctx, "REVERSE: argument should be string", -1);
  }
  const std::string_view s = TextArg(argv[0]);
  ResultString(ctx, std::string(s.rbegin(), s.rend()));
}

// Hex text (optionally 0x-prefixed, surrounding space ignored) to an integer.
void Unhex(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int type = sqlite3_value_type(argv[0]);
  if (type == SQLITE_NULL) return;
  if (type != SQLITE_TEXT) return sqlite3_result_error(ctx, "UNHEX: argument must be text", -1);
  std::string_view s = TextArg(argv[0]);
  const size_t first = s.find_first_not_of(" \t\n\r\f\v");
  if (first == std::string_view::npos) {
    return sqlite3_result_error(ctx, "UNHEX: input is empty or only whitespace", -1);
  }
  s = s.substr(first, s.find_last_not_of(" \t\n\r\f\v") - first + 1);
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return sqlite3_result_error(ctx, "UNHEX: hex string is empty after prefix", -1);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, 16);
  if (ec != std::errc() || end != s.data() + s.size()) {
    return sqlite3_result_error(ctx, "UNHEX: invalid or out of range hex string", -1);
  }
  sqlite3_result_int64(ctx, value);
}

// A mangled C++ symbol name demangled; NULL when it is not one (demangle.h).
void Demangle(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int type = sqlite3_value_type(argv[0]);
  if (type == SQLITE_NULL) return;
  if (type != SQLITE_TEXT) return sqlite3_result_error(ctx, "DEMANGLE: argument must be text", -1);
  if (std::optional<std::string> name = DemangleSymbol(TextArg(argv[0]))) ResultString(ctx, *name);
}

// The index-th (0-based) field of `s` split on `delimiter`, or NULL past the last one.
void StrSplit(sqlite3_context* ctx, int, sqlite3_value** argv) {
  static constexpr char kBadDelimiter[] = "str_split: delimiter must be a non-empty string";
  if (sqlite3_value_type(argv[1]) != SQLITE_TEXT || TextArg(argv[1]).empty()) {
    return sqlite3_result_error(ctx, kBadDelimiter, -1);
  }
  if (sqlite3_value_type(argv[2]) != SQLITE_INTEGER || sqlite3_value_int64(argv[2]) < 0) {
    return sqlite3_result_error(ctx, "str_split: field number must be a non-negative integer", -1);
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) return;
  const std::string delimiter(TextArg(argv[1]));
  std::string_view s = TextArg(argv[0]);
  for (int64_t field = sqlite3_value_int64(argv[2]);; --field) {
    const size_t next = s.find(delimiter);
    if (field == 0) return ResultString(ctx, std::string(s.substr(0, next)));
    if (next == std::string_view::npos) return;
    s.remove_prefix(next + delimiter.size());
  }
}

// __intrinsic_strip_hex(name, min_digits): masks numbers in slice names so they aggregate.
// Every run of hex digits that starts the text, follows a non-alphanumeric character or "0x",
// or starts with a decimal digit becomes "<num>" when it contains a decimal digit (after
// "0x": always) and is at least min_digits long. Words such as "cafe" stay.
std::string StripHexText(std::string_view in, int64_t min_digits) {
  auto is_alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  auto is_xdigit = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::string out;
  out.reserve(in.size());
  size_t i = 0;
  while (i < in.size()) {
    bool mask = false;
    const char c = in[i];
    if ((c == 'x' || c == 'X') && i >= 1 && in[i - 1] == '0') {
      out += c;
      ++i;
      mask = true;
    } else if (!is_alnum(c)) {
      out += c;
      ++i;
    } else if (!(i == 0 && is_xdigit(c)) && !is_digit(c)) {
      out += c;
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < in.size() && is_xdigit(in[i])) {
      if (is_digit(in[i])) mask = true;
      ++i;
    }
    if (mask && static_cast<int64_t>(i - start) >= min_digits) {
      out += "<num>";
    } else {
      out.append(in.substr(start, i - start));
    }
  }
  return out;
}

void StripHex(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
    return;
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
    return sqlite3_result_error(ctx, "__intrinsic_strip_hex: first argument must be string", -1);
  }
  if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER || sqlite3_value_int64(argv[1]) < 0) {
    return sqlite3_result_error(
        ctx, "__intrinsic_strip_hex: second argument must be a non-negative integer", -1);
  }
  const std::string out = StripHexText(TextArg(argv[0]), sqlite3_value_int64(argv[1]));
  sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

// --------------------------------------------------------------------------------- TO_FTRACE

void ToFtrace(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER) {
    return sqlite3_result_error(ctx, "Usage: to_ftrace(id)", -1);
  }
  SqlFunctionContext* c = ContextOf(ctx);
  const TraceStorage& s = *c->storage;
  const int64_t id = sqlite3_value_int64(argv[0]);
  if (id < 0 || id >= s.ftrace_event.row_count()) {
    return sqlite3_result_error(ctx, "to_ftrace: no ftrace_event row with this id", -1);
  }
  SqlFunctionCaches& k = *c->caches;
  if (!k.kernel_ready) {
    k.kernel_ready = true;
    if (auto release = s.GetMetadataString("system_release")) {
      k.kernel = ParseKernelVersion(*release);
    }
  }
  const uint32_t row = static_cast<uint32_t>(id);
  std::vector<uint32_t> arg_rows;
  if (!s.ftrace_event.arg_set_id.IsNull(row)) {
    const uint32_t set = s.ftrace_event.arg_set_id[row];
    for (uint32_t pos = ArgSetStart(c, set); pos < s.args.row_count(); ++pos) {
      const uint32_t arg = ArgRowAt(c, pos);
      if (s.args.arg_set_id[arg] != set) break;
      arg_rows.push_back(arg);
    }
  }
  const std::optional<std::string> line = FtraceEventText(s, row, arg_rows, k.kernel);
  if (!line) {
    return sqlite3_result_error(
        ctx, absl::StrCat("to_ftrace: Cannot serialize row id ", id).c_str(), -1);
  }
  ResultString(ctx, *line);
}

// ------------------------------------------------------------------------------ registration

struct ScalarDef {
  const char* name;
  int argc;  // -1: any
  void (*fn)(sqlite3_context*, int, sqlite3_value**);
  bool deterministic;
};

constexpr ScalarDef kScalars[] = {
    {"extract_arg", 2, ExtractArg, true},
    {"__intrinsic_arg_set_to_json", 1, ArgSetToJsonFn, true},
    {"trace_start", 0, TraceStart, true},
    {"trace_end", 0, TraceEnd, true},
    {"trace_dur", 0, TraceDur, true},
    {"extract_metadata", 1, ExtractMetadata, true},
    {"extract_metadata_for_machine", 2, ExtractMetadataForMachine, true},
    {"extract_metadata_for_trace", 2, ExtractMetadataForTrace, true},
    {"extract_exact_metadata", 3, ExtractExactMetadata, true},
    {"to_realtime", 1, ToRealtime, true},
    {"to_monotonic", 1, ToMonotonic, true},
    {"abs_time_str", 1, AbsTimeStr, true},
    {"to_timecode", 1, ToTimecode, true},
    {"hash", -1, Hash, true},
    {"reverse", 1, Reverse, true},
    {"unhex", 1, Unhex, true},
    {"demangle", 1, Demangle, true},
    {"str_split", 3, StrSplit, true},
    {"__intrinsic_strip_hex", 2, StripHex, true},
    {"to_ftrace", 1, ToFtrace, true},
};

}  // namespace

absl::Status RegisterSqlFunctions(sqlite3* db, SqlFunctionContext* context) {
  auto check = [&](int rc, const char* name) {
    if (rc == SQLITE_OK) return absl::OkStatus();
    return absl::InternalError(
        absl::StrCat("cannot register SQL function ", name, ": ", sqlite3_errmsg(db)));
  };
  for (const ScalarDef& f : kScalars) {
    const int flags = SQLITE_UTF8 | SQLITE_INNOCUOUS | (f.deterministic ? SQLITE_DETERMINISTIC : 0);
    absl::Status s = check(sqlite3_create_function_v2(db, f.name, f.argc, flags, context, f.fn,
                                                      nullptr, nullptr, nullptr),
                           f.name);
    if (!s.ok()) return s;
  }
  const int agg_flags = SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC;
  absl::Status s =
      check(sqlite3_create_function_v2(db, "percentile", 2, agg_flags, context, nullptr,
                                       PercentileStep, PercentileFinal, nullptr),
            "percentile");
  if (!s.ok()) return s;
  return check(sqlite3_create_function_v2(db, "median", 1, agg_flags, context, nullptr, MedianStep,
                                          PercentileFinal, nullptr),
               "median");
}

}  // namespace tw
