#include "libs/trace/importers/android_bugreport/battery_stats_checkin.h"

#include <charconv>
#include <optional>
#include <utility>

#include <string>

namespace tw {
namespace {

// Splits at `sep`, one field at a time.
class Fields {
 public:
  Fields(std::string_view s, char sep) : rest_(s), sep_(sep) {}
  std::string_view Next() {
    if (done_) return {};
    const size_t pos = rest_.find(sep_);
    std::string_view field = rest_.substr(0, pos);
    if (pos == std::string_view::npos) {
      done_ = true;
      rest_ = {};
    } else {
      rest_ = rest_.substr(pos + 1);
    }
    return field;
  }
  std::string_view rest() const { return rest_; }

 private:
  std::string_view rest_;
  char sep_;
  bool done_ = false;
};

std::optional<int64_t> ToInt(std::string_view s) {
  int64_t v = 0;
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// History events (BatteryStats' HISTORY_EVENT_CHECKIN_NAMES) → their long names.
std::optional<std::string_view> EventName(std::string_view code) {
  static constexpr std::pair<std::string_view, std::string_view> kEvents[] = {
      {"Enl", "null"},         {"Epr", "proc"},        {"Efg", "fg"},
      {"Etp", "top"},          {"Esy", "sync"},        {"Ewl", "wake_lock_in"},
      {"Ejb", "job"},          {"Eur", "user"},        {"Euf", "userfg"},
      {"Ecn", "conn"},         {"Eac", "active"},      {"Epi", "pkginst"},
      {"Epu", "pkgunin"},      {"Eal", "alarm"},       {"Est", "stats"},
      {"Eai", "pkginactive"},  {"Eaa", "pkgactive"},   {"Etw", "tmpwhitelist"},
      {"Esw", "screenwake"},   {"Ewa", "wakeupap"},    {"Elw", "longwake"},
      {"Eec", "est_capacity"},
  };
  for (const auto& [c, name] : kEvents) {
    if (c == code) return name;
  }
  return std::nullopt;
}

// History states (BatteryStats' HISTORY_STATE / STATE2 descriptions): checkin code → long name,
// and for enumerated states the checkin value names in value order.
struct StateInfo {
  std::string_view code;
  std::string_view name;
  std::vector<std::string_view> values;
};

const StateInfo* FindState(std::string_view code) {
  static const auto* kStates = new std::vector<StateInfo>{
      {"r", "running", {}},
      {"w", "wake_lock", {}},
      {"s", "sensor", {}},
      {"g", "gps", {}},
      {"Wl", "wifi_full_lock", {}},
      {"Ws", "wifi_scan", {}},
      {"Wm", "wifi_multicast", {}},
      {"Wr", "wifi_radio", {}},
      {"Pr", "mobile_radio", {}},
      {"Psc", "phone_scanning", {}},
      {"a", "audio", {}},
      {"S", "screen", {}},
      {"BP", "plugged", {}},
      {"Sd", "screen_doze", {}},
      {"Pcn",
       "data_conn",
       {"oos", "gprs", "edge", "umts", "cdma", "evdo_0", "evdo_A", "1xrtt", "hsdpa", "hsupa",
        "hspa", "iden", "evdo_b", "lte", "ehrpd", "hspap", "gsm", "td_scdma", "iwlan", "lte_ca",
        "nr", "emngcy", "other"}},
      {"Pst", "phone_state", {"in", "out", "em", "off"}},
      {"Pss", "phone_signal_strength", {}},
      {"Sb", "brightness", {}},
      {"ps", "power_save", {}},
      {"v", "video", {}},
      {"Ww", "wifi_running", {}},
      {"W", "wifi", {}},
      {"fl", "flashlight", {}},
      {"di", "device_idle", {"off", "light", "full", "???"}},
      {"ch", "charging", {}},
      {"Ud", "usb_data", {}},
      {"Pcl", "phone_in_call", {}},
      {"b", "bluetooth", {}},
      {"Wss", "wifi_signal_strength", {}},
      {"Wsp",
       "wifi_suppl",
       {"inv", "dsc", "dis", "inact", "scan", "auth", "ascing", "asced", "4-way", "group",
        "compl", "dorm", "uninit"}},
      {"ca", "camera", {}},
      {"bles", "ble_scan", {}},
      {"Chtp", "cellular_high_tx_power", {}},
      {"Gss", "gps_signal_quality", {"poor", "good", "none"}},
      {"nrs", "nr_state", {}},
  };
  for (const StateInfo& s : *kStates) {
    if (s.code == code) return &s;
  }
  return nullptr;
}

// A state's value: a number, or one of its value names (its index).
std::optional<int64_t> StateValue(const StateInfo& state, std::string_view value) {
  if (auto n = ToInt(value)) return n;
  for (size_t i = 0; i < state.values.size(); ++i) {
    if (state.values[i] == value) return static_cast<int64_t>(i);
  }
  return std::nullopt;
}

}  // namespace

const BatteryStatsCheckin::PoolItem& BatteryStatsCheckin::Pool(int64_t index) const {
  static const PoolItem kMissing;
  if (index < 0 || static_cast<size_t>(index) >= pool_.size()) return kMissing;
  return pool_[static_cast<size_t>(index)];
}

bool BatteryStatsCheckin::ParseLine(std::string_view line) {
  Fields fields(line, ',');
  if (fields.Next() != "9") return false;
  const std::string_view kind = fields.Next();
  if (kind == "hsp") {
    const std::optional<int64_t> index = ToInt(fields.Next());
    if (!index || *index < 0 || *index > (int64_t{1} << 24)) return false;
    const std::optional<int64_t> uid = ToInt(fields.Next());
    // A redacted uid ("[PHONE_NUMBER]") leaves the entry out.
    if (!uid) return true;
    // The text is quoted and may hold commas: it is the rest of the line, between the quotes.
    const std::string_view rest = fields.rest();
    const size_t open = rest.find('"');
    const size_t close = rest.rfind('"');
    const std::string_view text =
        open == std::string_view::npos || close <= open ? rest : rest.substr(open + 1, close - open - 1);
    const size_t i = static_cast<size_t>(*index);
    if (i >= pool_.size()) pool_.resize(i + 1);
    pool_[i] = PoolItem{static_cast<int32_t>(*uid), std::string(text)};
    return true;
  }
  if (kind == "h") {
    const std::string_view stamp = fields.Next();
    constexpr std::string_view kTime = ":TIME:";
    if (const size_t t = stamp.find(kTime); t != std::string_view::npos) {
      const std::optional<int64_t> ms = ToInt(stamp.substr(t + kTime.size()));
      if (!ms) return false;
      now_ms_ = *ms;
      return true;
    }
    if (stamp.find(":START") != std::string_view::npos ||
        stamp.find(":SHUTDOWN") != std::string_view::npos) {
      return true;
    }
    const std::optional<int64_t> delta = ToInt(stamp);
    if (!delta) return false;
    now_ms_ += *delta;
    for (std::string_view item = fields.Next(); !item.empty(); item = fields.Next()) {
      OnHistoryItem(item);
    }
    return true;
  }
  if (kind == "0" && fields.Next() == "i" && fields.Next() == "vers") {
    const std::optional<int64_t> version = ToInt(fields.Next());
    if (!version) return false;
    version_ = static_cast<uint32_t>(*version);
  }
  // Per-uid and summary lines are not imported.
  return true;
}

void BatteryStatsCheckin::OnHistoryItem(std::string_view item) {
  Fields kv(item, '=');
  std::string_view key = kv.Next();
  const std::string_view value = kv.Next();
  std::string_view prefix;
  if (!key.empty() && (key[0] == '+' || key[0] == '-')) {
    prefix = key.substr(0, 1);
    key = key.substr(1);
  }
  // Each reading in turn, as trace_processor tries them.
  if (OnEvent(prefix, key, value)) return;
  if (OnState(prefix, key, value)) return;
  if (OnBatteryCounter(prefix, key, value)) return;
  OnWakeLock(prefix, key, value);
}

bool BatteryStatsCheckin::OnEvent(std::string_view prefix, std::string_view key,
                                  std::string_view value) {
  if (key.empty() || key[0] != 'E') return false;
  const std::optional<std::string_view> name = EventName(key);
  const std::optional<int64_t> index = ToInt(value);
  if (!name || !index) return true;  // an event, but not one we can read
  const PoolItem& item = Pool(*index);
  GlobalInstantData d;
  d.track_name = storage_->Intern("battery_stats." + std::string(*name));
  d.track_type = "battery_stats";
  const StringId item_key = storage_->Intern("bstats_item_name");
  d.dimensions.push_back(
      Arg{item_key, item_key, ArgValue::String(storage_->Intern(*name))});
  d.name = storage_->Intern(std::string(prefix) + std::string(*name) + "=" + std::to_string(item.uid) +
                           ":\"" + item.text + "\"");
  sorter_->Push(EventSorter::QueueForSequence(0),
                Event::WithPayload(now_ms_ * 1000000, EventType::kGlobalInstant, std::move(d)));
  return true;
}

bool BatteryStatsCheckin::OnState(std::string_view prefix, std::string_view key,
                                  std::string_view value) {
  if (!prefix.empty() && value.empty()) {
    // Wake locks are slices (OnWakeLock), not a counter.
    if (key == "w") return true;
    const StateInfo* state = FindState(key);
    if (!state) return true;
    const std::string name = "battery_stats." + std::string(state->name);
    PushCounter(name, "battery_stats", prefix == "+" ? 1 : 0, {{"counter_key", name}});
    // The screen also drives ScreenState, whose convention is 1 off, 2 on.
    if (state->name == "screen") PushCounter("ScreenState", "screen_state", prefix == "+" ? 2 : 1, {});
    return true;
  }
  if (prefix.empty() && !value.empty()) {
    const StateInfo* state = FindState(key);
    if (!state) return false;
    const std::optional<int64_t> v = StateValue(*state, value);
    if (!v) return false;
    const std::string name = "battery_stats." + std::string(state->name);
    PushCounter(name, "battery_stats", static_cast<double>(*v), {{"counter_key", name}});
    return true;
  }
  return false;
}

bool BatteryStatsCheckin::OnBatteryCounter(std::string_view prefix, std::string_view key,
                                           std::string_view value) {
  if (!prefix.empty() || value.empty() || key.empty() || key[0] != 'B') return false;
  // The checkin format names no battery: the battery name dimension is empty.
  auto battery = [&](std::string_view counter, int64_t scale) {
    if (const std::optional<int64_t> v = ToInt(value)) {
      PushCounter("batt." + std::string(counter), "battery_counter",
                  static_cast<double>(*v * scale),
                  {{"battery_name", ""}, {"counter_name", counter}});
    }
    return true;
  };
  if (key == "Bl") return battery("capacity_pct", 1);
  if (key == "Bcc") return battery("charge_uah", 1000);  // mAh → µAh
  if (key == "Bv") return battery("voltage_uv", 1000);   // mV → µV
  if (key == "Bs") {
    // BatteryManager.BATTERY_STATUS_*.
    double status = 0;
    switch (value[0]) {
      case '?': status = 1; break;
      case 'c': status = 2; break;
      case 'd': status = 3; break;
      case 'n': status = 4; break;
      case 'f': status = 5; break;
      default: break;
    }
    PushCounter("BatteryStatus", "battery_status", status, {});
    return true;
  }
  if (key == "Bp") {
    // BatteryManager.BATTERY_PLUGGED_*.
    double plug = 0;
    switch (value[0]) {
      case 'a': plug = 1; break;
      case 'u': plug = 2; break;
      case 'w': plug = 4; break;
      default: break;
    }
    PushCounter("PlugType", "battery_plugged_status", plug, {});
    return true;
  }
  return false;
}

bool BatteryStatsCheckin::OnWakeLock(std::string_view prefix, std::string_view key,
                                     std::string_view value) {
  if (prefix.empty() || key != "w" || value.empty()) return false;
  // Before version 36 a release names no pool entry, so holds cannot be paired.
  if (version_ < 36) return false;
  const std::optional<int64_t> index = ToInt(value);
  if (!index) return false;
  GlobalSliceData d;
  d.track_name = storage_->Intern("WakeLocks");
  d.track_type = "dumpstate_wakelocks";
  d.cookie = *index;
  if (prefix == "+") {
    d.phase = GlobalSliceData::Phase::kBegin;
    d.name = storage_->Intern(Pool(*index).text);
  } else {
    d.phase = GlobalSliceData::Phase::kEnd;
  }
  sorter_->Push(EventSorter::QueueForSequence(0),
                Event::WithPayload(now_ms_ * 1000000, EventType::kGlobalSlice, std::move(d)));
  return true;
}

void BatteryStatsCheckin::PushCounter(
    std::string_view name, std::string_view type, double value,
    const std::vector<std::pair<std::string_view, std::string_view>>& dims) {
  CounterData c;
  c.scope = CounterData::Scope::kGlobal;
  c.name = storage_->Intern(name);
  c.type = storage_->Intern(type);
  c.value = value;
  for (const auto& [k, v] : dims) {
    const StringId key = storage_->Intern(k);
    c.dimension_args.push_back(Arg{key, key, ArgValue::String(storage_->Intern(v))});
  }
  sorter_->Push(EventSorter::QueueForSequence(0),
                Event::WithPayload(now_ms_ * 1000000, EventType::kCounter, std::move(c)));
}

}  // namespace tw
