#include "libs/verify/grounding.h"

#include <cctype>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <variant>

namespace tw::verify {
namespace {

std::optional<double> Numeric(const Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  return std::nullopt;
}

// Half a unit of the last written digit, with a little slack for binary floating point.
double Tolerance(const StatedNumber& n) { return 0.5 * std::pow(10.0, -n.decimals) * 1.0001; }

bool Near(double cell_in_stated_units, const StatedNumber& n) {
  return std::fabs(cell_in_stated_units - n.value) <= Tolerance(n);
}

// How many of the stated unit one cell unit is, for each interpretation worth trying.
// E.g. a duration-ns cell for a stated "ms" number: cell * 1e-6.
std::vector<double> Scales(NumberUnit stated, ColumnUnit column) {
  auto time_scale = [](NumberUnit u) {
    switch (u) {
      case NumberUnit::kNanoseconds: return 1.0;
      case NumberUnit::kMicroseconds: return 1e-3;
      case NumberUnit::kMilliseconds: return 1e-6;
      case NumberUnit::kSeconds: return 1e-9;
      default: return 0.0;
    }
  };
  const bool plain = column == ColumnUnit::kUnknown || column == ColumnUnit::kNumber;
  if (IsDuration(stated)) {
    if (column == ColumnUnit::kDurationNs) return {time_scale(stated)};
    // A plain column may already be in the stated unit (dur_ms) or in ns (raw dur).
    if (plain) return {1.0, time_scale(stated)};
    return {};
  }
  switch (stated) {
    case NumberUnit::kPercent:
      // Percent columns hold 0–100 or a 0–1 fraction; plain columns may hold either too.
      if (column == ColumnUnit::kPercent || plain) return {1.0, 100.0};
      return {};
    case NumberUnit::kHertz:
    case NumberUnit::kKilohertz:
    case NumberUnit::kMegahertz:
    case NumberUnit::kGigahertz: {
      if (!plain) return {};
      // cpufreq counters are in kHz; other columns may be Hz or MHz.
      const double stated_in_hz = stated == NumberUnit::kHertz      ? 1
                                  : stated == NumberUnit::kKilohertz ? 1e3
                                  : stated == NumberUnit::kMegahertz ? 1e6
                                                                     : 1e9;
      return {1.0 / stated_in_hz, 1e3 / stated_in_hz, 1e6 / stated_in_hz};
    }
    case NumberUnit::kBytes:
    case NumberUnit::kKilobytes:
    case NumberUnit::kMegabytes:
    case NumberUnit::kGigabytes: {
      if (column != ColumnUnit::kBytes && !plain) return {};
      const int power = stated == NumberUnit::kBytes       ? 0
                        : stated == NumberUnit::kKilobytes ? 1
                        : stated == NumberUnit::kMegabytes ? 2
                                                           : 3;
      // KB vs KiB is ambiguous in prose: accept both bases. A plain column may already be in
      // the stated unit (rss_mb).
      if (plain) return {1.0, 1.0 / std::pow(1024.0, power), 1.0 / std::pow(1000.0, power)};
      return {1.0 / std::pow(1024.0, power), 1.0 / std::pow(1000.0, power)};
    }
    default:
      return {1.0};
  }
}

bool RowRatioMatches(const StatedNumber& n, const std::vector<Cell>& row) {
  // "9.2 %" of janky frames: janky / total * 100 from one row.
  std::vector<double> values;
  for (const Cell& c : row) {
    if (auto v = Numeric(c); v && *v != 0) values.push_back(*v);
  }
  if (values.size() > 32) return false;  // keep it cheap on wide rows
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = 0; j < values.size(); ++j) {
      if (i != j && Near(values[i] / values[j] * 100.0, n)) return true;
    }
  }
  return false;
}

// A number quoted from text in the data — an ANR message's pid, "Waited 5000ms" in a log line —
// is grounded by that text: it appears verbatim in a string cell, not glued to other digits.
bool QuotedIn(const std::string& cell, const std::string& written) {
  if (written.empty()) return false;
  for (size_t at = cell.find(written); at != std::string::npos; at = cell.find(written, at + 1)) {
    const bool digit_before = at > 0 && (std::isdigit(static_cast<unsigned char>(cell[at - 1])) ||
                                         cell[at - 1] == '.');
    const size_t end = at + written.size();
    const bool digit_after = end < cell.size() && std::isdigit(static_cast<unsigned char>(cell[end]));
    if (!digit_before && !digit_after) return true;
  }
  return false;
}

}  // namespace

std::optional<GroundingSite> LocateGrounding(const StatedNumber& number,
                                             const std::vector<const Artifact*>& artifacts) {
  for (size_t a = 0; a < artifacts.size(); ++a) {
    const Artifact* artifact = artifacts[a];
    for (size_t r = 0; r < artifact->rows.size(); ++r) {
      const auto& row = artifact->rows[r];
      for (size_t c = 0; c < row.size(); ++c) {
        const GroundingSite site{a, static_cast<int64_t>(r), static_cast<int>(c)};
        if (const auto* text = std::get_if<std::string>(&row[c]); text && QuotedIn(*text, number.text)) {
          return site;
        }
        const auto value = Numeric(row[c]);
        if (!value) continue;
        const ColumnUnit unit =
            c < artifact->columns.size() ? artifact->columns[c].unit : ColumnUnit::kUnknown;
        if (number.unit == NumberUnit::kNone && unit == ColumnUnit::kDurationNs) continue;
        for (double scale : Scales(number.unit, unit)) {
          if (Near(*value * scale, number)) return site;
        }
      }
      if (number.unit == NumberUnit::kPercent && RowRatioMatches(number, row)) {
        return GroundingSite{a, static_cast<int64_t>(r), -1};
      }
    }
  }
  for (size_t a = 0; a < artifacts.size(); ++a) {
    for (const Cell& parameter : artifacts[a]->parameters) {
      const auto value = Numeric(parameter);
      if (!value) continue;
      for (double scale : Scales(number.unit, ColumnUnit::kUnknown)) {
        if (Near(*value * scale, number)) return GroundingSite{a, -1, -1};
      }
    }
  }
  return std::nullopt;
}

bool IsGrounded(const StatedNumber& number, const std::vector<const Artifact*>& artifacts) {
  return LocateGrounding(number, artifacts).has_value();
}

bool IsWellKnownConstant(const StatedNumber& n) {
  auto is_one_of = [&](std::initializer_list<double> values) {
    for (double v : values) {
      if (Near(v, n)) return true;
    }
    return false;
  };
  switch (n.unit) {
    case NumberUnit::kHertz: return is_one_of({30, 60, 90, 120, 144});
    case NumberUnit::kMilliseconds: return is_one_of({16.67, 16.6, 16, 11.11, 11.1, 8.33, 8.3, 6.94});
    case NumberUnit::kPercent: return is_one_of({100});
    case NumberUnit::kSeconds: return is_one_of({5});
    default: return false;
  }
}

}  // namespace tw::verify
